// SPDX-License-Identifier: Apache-2.0
#include "core/model/external_data.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <set>

#include "core/diag/error.h"
#include "core/ir/location.h"
#include "core/types/tensor_proto.h"
#include "core/util/mapped_file.h"
#include "core/util/sha1.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace fs = std::filesystem;

// A location's or file's problem: the rule and its message. Outside the anonymous namespace
// since ExternalData::FileState, a class with linkage, holds one.
struct ExternalDataProblem {
  std::string rule, message;
};

namespace {

using Problem = ExternalDataProblem;

// Closes a descriptor when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

std::vector<std::string> split_components(const std::string& normalized) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= normalized.size()) {
    std::size_t end = normalized.find('/', start);
    if (end == std::string::npos) end = normalized.size();
    if (end > start) parts.push_back(normalized.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// Turns a location into '/'-separated components, refusing absolute paths and "..".
// Backslashes count as separators: models written on Windows use them, and a "..\" must not
// slip through as an odd file name.
std::optional<Problem> normalize_location(const std::string& location, std::string& out) {
  if (location.empty())
    return Problem{"external-data.missing-location", "external data has an empty location"};
  if (location.find('\0') != std::string::npos)
    return Problem{"external-data.bad-location",
                   "external data location " + quoted_name(location) + " contains a NUL byte"};
  std::string p = location;
  for (char& c : p)
    if (c == '\\') c = '/';
  const bool drive = p.size() >= 2 && p[1] == ':' && std::isalpha(static_cast<unsigned char>(p[0]));
  if (p.front() == '/' || drive)
    return Problem{"external-data.absolute-path",
                   "external data location " + quoted_name(location) +
                       " is an absolute path; locations must be relative to the model's directory"};
  std::vector<std::string> kept;
  for (const auto& part : split_components(p)) {
    if (part == ".") continue;
    if (part == "..")
      return Problem{"external-data.escapes-model-dir",
                     "external data location " + quoted_name(location) +
                         " uses \"..\" to leave the model's directory"};
    kept.push_back(part);
  }
  if (kept.empty())
    return Problem{"external-data.is-directory", "external data location " + quoted_name(location) +
                                                     " names the model's directory, not a file"};
  out.clear();
  for (const auto& part : kept) out += (out.empty() ? "" : "/") + part;
  return std::nullopt;
}

std::optional<uint64_t> parse_unsigned(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  if (v > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return v;
}

bool is_sha1_hex(const std::string& s) {
  if (s.size() != 40) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool has_inline_data(const onnx::TensorProto& t) {
  return t.has_raw_data() || t.float_data_size() || t.int32_data_size() || t.int64_data_size() ||
         t.double_data_size() || t.uint64_data_size() || t.string_data_size();
}

// Opens component by component with O_NOFOLLOW: the fallback when openat2 is unavailable.
int open_by_components(int dir_fd, const std::vector<std::string>& parts, std::string& why) {
  Fd current(::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0));
  if (current.get() < 0) {
    why = std::strerror(errno);
    return -1;
  }
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    int next =
        ::openat(current.get(), parts[i].c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) {
      why = quoted_name(parts[i]) + ": " + std::strerror(errno);
      return -1;
    }
    current.reset(next);
  }
  int fd = ::openat(current.get(), parts.back().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) why = quoted_name(parts.back()) + ": " + std::strerror(errno);
  return fd;
}

}  // namespace

int open_beneath(int dir_fd, const std::string& relative, std::string& why) {
  open_how how{};
  how.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  int fd = static_cast<int>(::syscall(SYS_openat2, dir_fd, relative.c_str(), &how, sizeof how));
  if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
    // Older kernels, or a sandbox that filters openat2: walk the components ourselves.
    fd = open_by_components(dir_fd, split_components(relative), why);
  } else if (fd < 0) {
    why = std::strerror(errno);
  }
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
    why = "not a regular single-link file";
    ::close(fd);
    errno = EACCES;
    return -1;
  }
  return fd;
}

struct ExternalData::FileState {
  std::optional<Problem> problem;
  // The problem is reported once per sink, for the first tensor; the others are counted.
  const DiagSink* reported_to = nullptr;
  std::string first_location;
  int repeats = 0;
  uint64_t size = 0;
  std::shared_ptr<const MappedFile> mapping;
  int tensors = 0;
  uint64_t bytes = 0;
};

ExternalData::ExternalData(fs::path base_dir, std::string model_name)
    : base_dir_(std::move(base_dir)), model_name_(std::move(model_name)) {}

ExternalData::~ExternalData() = default;

// Walks the path with fstatat(AT_SYMLINK_NOFOLLOW) from the base directory, opening only
// directories inside it (O_PATH, which reads nothing), and records what it finds.
const ExternalData::FileState& ExternalData::inspect(const std::string& normalized) {
  auto it = files_.find(normalized);
  if (it != files_.end()) return *it->second;
  auto state = std::make_unique<FileState>();
  auto fail = [&](std::string rule, std::string message) {
    state->problem = Problem{std::move(rule), std::move(message)};
  };
  const auto parts = split_components(normalized);
  const std::string dir_text = base_dir_.empty() ? "." : base_dir_.string();
  Fd dir(::open(dir_text.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) {
    fail("external-data.missing-dir",
         "data directory " + quoted_name(dir_text) + " cannot be opened: " + std::strerror(errno));
  }
  std::string walked;
  for (std::size_t i = 0; i < parts.size() && !state->problem; ++i) {
    walked += (walked.empty() ? "" : "/") + parts[i];
    const bool last = i + 1 == parts.size();
    struct stat st {};
    if (::fstatat(dir.get(), parts[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      fail("external-data.missing-file", "external data file " + quoted_name(normalized) +
                                             " does not exist in " + quoted_name(dir_text) +
                                             (last ? "" : " (no " + quoted_name(walked) + ")"));
    } else if (S_ISLNK(st.st_mode)) {
      fail("external-data.symlink",
           quoted_name(walked) +
               " is a symbolic link; external data must be a plain file inside the "
               "model's directory, reached without links");
    } else if (!last && !S_ISDIR(st.st_mode)) {
      fail("external-data.not-a-file", quoted_name(walked) + " is not a directory");
    } else if (!last) {
      int next =
          ::openat(dir.get(), parts[i].c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (next < 0)
        fail("external-data.missing-file", quoted_name(walked) + ": " + std::strerror(errno));
      dir.reset(next);
    } else if (S_ISDIR(st.st_mode)) {
      fail("external-data.is-directory", quoted_name(walked) + " is a directory, expected a file");
    } else if (!S_ISREG(st.st_mode)) {
      fail("external-data.not-a-file", quoted_name(walked) + " is not a regular file");
    } else if (st.st_nlink > 1) {
      fail("external-data.hardlink",
           quoted_name(walked) + " has " + std::to_string(st.st_nlink) +
               " hard links; a linked file may expose data from outside the model's directory");
    } else {
      state->size = static_cast<uint64_t>(st.st_size);
    }
  }
  const FileState& ref = *state;
  order_.push_back(normalized);
  files_.emplace(normalized, std::move(state));
  return ref;
}

std::optional<ExternalRef> ExternalData::validate(const onnx::TensorProto& tensor,
                                                  const std::string& location, DiagSink& sink) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto error = [&](const std::string& rule, const std::string& message) {
    sink.report({Severity::error, rule, model_name_, location, message, {}});
  };
  bool ok = true;
  ExternalRef ref;
  std::set<std::string> seen;
  bool has_location = false;
  for (const auto& kv : tensor.external_data()) {
    const std::string& key = kv.key();
    if (!seen.insert(key).second) {
      error("external-data.duplicate-key",
            "external_data key " + quoted_name(key) + " appears twice");
      ok = false;
      continue;
    }
    if (key == "location") {
      ref.location = kv.value();
      has_location = true;
    } else if (key == "offset" || key == "length") {
      auto v = parse_unsigned(kv.value());
      if (!v) {
        error("external-data.bad-" + key,
              key + " " + quoted_name(kv.value()) + " is not a non-negative integer");
        ok = false;
      } else if (key == "offset") {
        ref.offset = *v;
      } else {
        ref.length = *v;
      }
    } else if (key == "checksum") {
      ref.checksum = kv.value();
      if (!is_sha1_hex(ref.checksum)) {
        error("external-data.bad-checksum",
              "checksum " + quoted_name(ref.checksum) + " is not a SHA1 digest (40 hex digits)");
        ok = false;
      }
    } else if (key != "basepath") {
      sink.report({Severity::warning,
                   "external-data.unknown-key",
                   model_name_,
                   location,
                   "unknown external_data key " + quoted_name(key) +
                       " is ignored; expected location, "
                       "offset, length or checksum",
                   {}});
    }
  }
  if (!has_location) {
    error("external-data.missing-location",
          "data_location is EXTERNAL but external_data has no \"location\" key");
    return std::nullopt;
  }
  if (has_inline_data(tensor)) {
    error("external-data.inline-data",
          "tensor is marked EXTERNAL but also holds data in the model file");
    ok = false;
  }
  if (tensor.data_type() == onnx::TensorProto::STRING) {
    error("external-data.string-tensor", "string tensors cannot be stored as external data");
    return std::nullopt;
  }
  if (auto problem = normalize_location(ref.location, ref.normalized)) {
    error(problem->rule, problem->message);
    return std::nullopt;
  }
  FileState& file = const_cast<FileState&>(inspect(ref.normalized));
  if (file.problem) {
    // A missing or unreadable file cannot be fixed inside the model: an I/O failure (exit 3).
    const std::string& rule = file.problem->rule;
    if (rule == "external-data.missing-file" || rule == "external-data.missing-dir" ||
        rule == "external-data.open")
      sink.mark_io_failure();
    if (file.reported_to == &sink) {
      ++file.repeats;
      return std::nullopt;
    }
    file.reported_to = &sink;
    file.first_location = location;
    file.repeats = 0;
    error(file.problem->rule, file.problem->message);
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  const std::string name = quoted_name(ref.location);
  if (ref.offset > file.size) {
    error("external-data.offset-past-end", "offset " + std::to_string(ref.offset) +
                                               " is past the end of " + name + " (" +
                                               std::to_string(file.size) + " bytes)");
    return std::nullopt;
  }
  const uint64_t available = file.size - ref.offset;
  if (ref.length && *ref.length > available) {
    error("external-data.range-past-end",
          "offset " + std::to_string(ref.offset) + " + length " + std::to_string(*ref.length) +
              " runs past the end of " + name + " (" + std::to_string(file.size) + " bytes)");
    return std::nullopt;
  }
  auto expected = expected_wire_bytes(tensor);
  if (!expected) return std::nullopt;  // bad dims or type: the tensor checks report that
  const uint64_t have = ref.length ? *ref.length : available;
  if (have != *expected) {
    std::string what = ref.length ? "length " + std::to_string(*ref.length)
                                  : "without a length key, the " + std::to_string(available) +
                                        " bytes from offset to end of file";
    error("external-data.length-mismatch",
          what + " do" + (ref.length ? "es" : "") +
              " not match the tensor: " + std::to_string(*expected) + " bytes expected for dims " +
              shape_to_string(std::vector<int64_t>(tensor.dims().begin(), tensor.dims().end())) +
              " of " + std::string(type_name_or_number(tensor.data_type())));
    return std::nullopt;
  }
  ref.bytes = *expected;
  file.tensors += 1;
  file.bytes += ref.bytes;
  return ref;
}

std::shared_ptr<const MappedFile> ExternalData::map(const std::string& normalized) {
  FileState& file = *files_.at(normalized);
  if (file.mapping) return file.mapping;
  const std::string dir_text = base_dir_.empty() ? "." : base_dir_.string();
  Fd dir(::open(dir_text.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  std::string why;
  int fd = dir.get() < 0 ? -1 : open_beneath(dir.get(), normalized, why);
  if (fd < 0)
    throw_io("external-data.open", model_name_,
             "cannot open external data file " + quoted_name(normalized) + ": " + why);
  file.mapping = MappedFile::from_fd(fd, (base_dir_ / normalized).string());
  if (file.mapping->size() != file.size)
    throw_io("external-data.changed", model_name_,
             "external data file " + quoted_name(normalized) + " changed size while in use");
  return file.mapping;
}

std::shared_ptr<Storage> ExternalData::bytes(const onnx::TensorProto& tensor,
                                             const std::string& location) {
  DiagSink sink;
  auto ref = validate(tensor, location, sink);
  if (!ref) {
    for (const auto& d : sink.diagnostics())
      if (d.severity == Severity::error) throw_invalid(d.rule, d.file, d.location, d.message);
    throw_invalid("external-data.invalid", model_name_, location, "unusable external data");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto mapping = map(ref->normalized);
  const std::byte* p = mapping->data() + ref->offset;
  // Kernels read elements through typed pointers; an offset that breaks the element's
  // alignment gets a copy instead of a view.
  const auto* info = find_type_info(tensor.data_type());
  const std::size_t align = info ? static_cast<std::size_t>(std::min(info->mem_bytes, 8)) : 1;
  if (align > 1 && reinterpret_cast<uintptr_t>(p) % align != 0) {
    auto copy = Storage::allocate(ref->bytes);
    if (ref->bytes) std::memcpy(copy->writable_data(), p, ref->bytes);
    return copy;
  }
  return Storage::view(p, ref->bytes, mapping);
}

bool ExternalData::verify_checksum(const ExternalRef& ref, const std::string& location,
                                   DiagSink& sink) {
  if (ref.checksum.empty()) return true;
  std::shared_ptr<const MappedFile> mapping;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    mapping = map(ref.normalized);
  }
  std::string actual = sha1_hex(mapping->data(), mapping->size());
  std::string wanted = ref.checksum;
  for (char& c : wanted) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (actual == wanted) return true;
  sink.report(
      {Severity::error,
       "external-data.checksum-mismatch",
       model_name_,
       location,
       "SHA1 of " + quoted_name(ref.location) + " is " + actual + ", the model says " + wanted,
       {}});
  return false;
}

void ExternalData::report_repeats(DiagSink& sink) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& name : order_) {
    const FileState& f = *files_.at(name);
    if (!f.problem || f.reported_to != &sink || f.repeats == 0) continue;
    sink.report({Severity::note,
                 f.problem->rule,
                 model_name_,
                 f.first_location,
                 "the same for " + std::to_string(f.repeats) + " more tensor" +
                     (f.repeats == 1 ? "" : "s") + " in " + quoted_name(name),
                 {}});
  }
}

std::vector<ExternalFileUse> ExternalData::file_uses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ExternalFileUse> out;
  for (const auto& name : order_) {
    const FileState& f = *files_.at(name);
    if (f.tensors == 0) continue;
    out.push_back({name, f.size, f.tensors, f.bytes});
  }
  return out;
}

}  // namespace onnxtool
