// File: hw/shared_library.cpp
#include "hw/shared_library.h"

#include <dlfcn.h>

#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/platform/platform.h"

namespace parallax::hw {

SharedLibrary::SharedLibrary(const std::vector<std::string>& names) {
  std::string errors;
  for (const std::string& n : names) {
    handle_ = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) {
      loaded_ = n;
      return;
    }
    const char* e = dlerror();
    errors += fmt::format("\n  {}: {}", n, e ? e : "not found");
  }
  throw PlatformError(fmt::format("cannot load {} (tried: {}){}", names.empty() ? "" : names.front(), fmt::join(names, ", "), errors));
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const char* name) const {
  dlerror();
  void* p = dlsym(handle_, name);
  if (!p) throw PlatformError(fmt::format("{} has no symbol {}", loaded_, name));
  return p;
}

std::vector<std::string> cuda_library_candidates(const std::string& soname) {
  std::vector<std::string> out{soname};
  if (const char* home = std::getenv("CUDA_HOME")) out.push_back(fmt::format("{}/lib64/{}", home, soname));
  out.push_back("/usr/local/cuda/lib64/" + soname);
  return out;
}

}  // namespace parallax::hw
