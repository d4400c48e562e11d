// File: tools/fmt_library.cpp
// The compiled part of the fmt library, built here from the headers Debian 12 ships, which has
// no libfmt.a: every binary links this instead of libfmt.so, so that the parallax binary, with
// libstdc++ static as well, loads no C++ shared library at start (meson.build says why).
// Including format-inl.h without FMT_HEADER_ONLY defines fmt's out-of-line functions in this one
// file; the templates that format.h declares `extern` or leaves undefined are instantiated below
// for char, which is all the project formats.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;

}  // namespace detail
FMT_END_NAMESPACE
