// A fresh artifact directory for tests, removed with its files at the end.
#ifndef TILEOPT_RUNTIME_TESTS_ARTIFACTDIR_H
#define TILEOPT_RUNTIME_TESTS_ARTIFACTDIR_H

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace tileopt::testing {

// A fresh directory under the temp dir, holding the given files.
class ArtifactDir {
public:
  ArtifactDir() {
    std::string pattern = std::string(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") +
                          "/tileopt-runtime-test-XXXXXX";
    path = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~ArtifactDir() {
    std::string command = "rm -rf '" + path + "'";
    if (!path.empty()) {
      EXPECT_EQ(std::system(command.c_str()), 0);
    }
  }
  ArtifactDir(const ArtifactDir &) = delete;
  ArtifactDir &operator=(const ArtifactDir &) = delete;
  void write(const std::string &name, const std::string &text) {
    std::ofstream(path + "/" + name) << text;
  }
  std::string path;
};

} // namespace tileopt::testing

#endif // TILEOPT_RUNTIME_TESTS_ARTIFACTDIR_H
