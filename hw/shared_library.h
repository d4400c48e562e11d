// File: hw/shared_library.h
// dlopen() of an optional CUDA library (cuBLASLt, NCCL, NVML) with its functions looked up by
// name. Loading at run time keeps `parallax` startable where these libraries are absent (CI, a
// machine without a GPU, a GPU machine without NCCL): only the command that needs one fails, with
// a message naming the file names tried.
#pragma once

#include <string>
#include <vector>

namespace parallax::hw {

class SharedLibrary {
 public:
  // Tries each name in order (plain sonames go through the dynamic loader's search path, which
  // includes LD_LIBRARY_PATH). Throws PlatformError listing the names and dlerror() when none loads.
  explicit SharedLibrary(const std::vector<std::string>& names);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // Throws PlatformError naming the library and the symbol when it is missing.
  void* symbol(const char* name) const;
  template <typename F>
  void bind(F& fn, const char* name) const {
    fn = reinterpret_cast<F>(symbol(name));
  }
  const std::string& path() const { return loaded_; }

 private:
  void* handle_ = nullptr;
  std::string loaded_;
};

// Candidate file names for a CUDA library: the soname, then $CUDA_HOME/lib64 and
// /usr/local/cuda/lib64 (the toolkit's place on both machines).
std::vector<std::string> cuda_library_candidates(const std::string& soname);

}  // namespace parallax::hw
