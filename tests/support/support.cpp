// SPDX-License-Identifier: Apache-2.0
#include "tests/support/support.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace onnxtool::test {

namespace fs = std::filesystem;

fs::path source_dir() {
  return fs::path(ONNXTOOL_SOURCE_DIR);
}
fs::path testdata_dir() {
  return source_dir() / "testdata";
}

std::optional<fs::path> shared_dir() {
  const char* env = std::getenv("ONNXTOOL_SHARED");
  fs::path p = env && *env ? fs::path(env) : fs::path(ONNXTOOL_SHARED_DIR);
  std::error_code ec;
  if (fs::is_directory(p / "onnx-backend-tests", ec)) return p;
  return std::nullopt;
}

fs::path require_shared_dir(const std::string& what) {
  auto p = shared_dir();
  if (!p) {
    std::cout << "SKIPPED: " << what << ": ../shared/onnx-backend-tests is not present\n";
    std::exit(ONNXTOOL_SKIP_CODE);
  }
  return *p;
}

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "onnxtool-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

CommandResult run_onnxtool(const std::vector<std::string>& args, const std::string& stdin_bytes,
                           const fs::path& cwd, const std::vector<EnvSetting>& env) {
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    std::vector<char*> argv;
    std::string bin = ONNXTOOL_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    setenv("NO_COLOR", "1", 1);
    for (const auto& e : env) {
      if (e.value)
        setenv(e.name.c_str(), e.value->c_str(), 1);
      else
        unsetenv(e.name.c_str());
    }
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  CommandResult r;
  // Feed stdin and drain both pipes together so neither side blocks on a full pipe.
  std::size_t written = 0;
  if (stdin_bytes.empty()) {
    close(in[1]);
    in[1] = -1;
  } else {
    fcntl(in[1], F_SETFL, O_NONBLOCK);
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open || in[1] >= 0) {
    std::vector<pollfd> fds;
    if (out_open) fds.push_back({out[0], POLLIN, 0});
    if (err_open) fds.push_back({err[0], POLLIN, 0});
    if (in[1] >= 0) fds.push_back({in[1], POLLOUT, 0});
    if (poll(fds.data(), fds.size(), -1) < 0) break;
    for (auto& p : fds) {
      if (!p.revents) continue;
      if (p.fd == in[1]) {
        ssize_t n = write(in[1], stdin_bytes.data() + written, stdin_bytes.size() - written);
        if (n > 0) written += static_cast<std::size_t>(n);
        if (n < 0 || written == stdin_bytes.size()) {
          close(in[1]);
          in[1] = -1;
        }
        continue;
      }
      ssize_t n = read(p.fd, buf, sizeof buf);
      if (n <= 0) {
        close(p.fd);
        (p.fd == out[0] ? out_open : err_open) = false;
      } else {
        (p.fd == out[0] ? r.out : r.err).append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string shell_output(const std::string& command) {
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  return out;
}

std::string xml_xpath(const std::filesystem::path& file, const std::string& expr) {
  std::string out =
      shell_output("xmllint --xpath '" + expr + "' '" + file.string() + "' 2>/dev/null");
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace onnxtool::test
