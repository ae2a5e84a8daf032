// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the test suites.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace onnxtool::test {

// The project's source folder (for testdata/).
std::filesystem::path source_dir();
std::filesystem::path testdata_dir();
// ../shared, or $ONNXTOOL_SHARED when set; nullopt when it is not there.
std::optional<std::filesystem::path> shared_dir();
// Exits the whole test program with the CTest skip code, saying why, when ../shared is absent.
// Call it first thing in a suite that needs ../shared.
std::filesystem::path require_shared_dir(const std::string& what);

// Whether this build runs under AddressSanitizer: GCC defines __SANITIZE_ADDRESS__, clang (the
// sanitizer build's compiler) answers __has_feature(address_sanitizer) instead. Suites run a
// thinner slice there: the same code paths in a fraction of the time.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// The light models (whole CNNs) take seconds a run under the sanitizers: those builds run these
// two, which hold the grouped, pointwise and strided convolutions, the pools, Concat and the
// channel shuffle; the release build runs all nine.
inline bool light_model_in_sanitizer_slice(const std::string& name) {
  return name.find("squeezenet") != std::string::npos ||
         name.find("shufflenet") != std::string::npos;
}

// What a shell command prints on stdout (popen); "" when it cannot run.
std::string shell_output(const std::string& command);

// xmllint --xpath EXPR FILE, without the final newline: "" when it fails (xmllint is Debian's
// libxml2-utils; scripts/test.sh installs it).
std::string xml_xpath(const std::filesystem::path& file, const std::string& expr);

// A fresh empty directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void write_file(const std::filesystem::path& p, const std::string& bytes);
std::string read_file(const std::filesystem::path& p);

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};
// An environment variable for the child: set to value, or removed when value is empty.
struct EnvSetting {
  std::string name;
  std::optional<std::string> value;
};
// Runs the onnxtool binary with args (no shell), optional stdin bytes; captures everything.
// cwd: working directory of the child (default: inherited). env: changes to the environment the
// child inherits (this process's own stays as it is).
CommandResult run_onnxtool(const std::vector<std::string>& args,
                           const std::string& stdin_bytes = "",
                           const std::filesystem::path& cwd = {},
                           const std::vector<EnvSetting>& env = {});

}  // namespace onnxtool::test
