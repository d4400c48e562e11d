// File: sim/report/svg_document.cpp
#include "sim/report/svg_document.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

namespace parallax {

namespace {

// v rounded to hundredths as fmt's "{:.2f}" rounds it (exactly, ties to even), for |v| < 1e15:
// v = m * 2^e exactly, so v * 100 = 100m * 2^e with 100m < 2^60, and the rounding is one shift
// and one comparison of the bits shifted out. Returns false outside that range.
bool hundredths(double v, uint64_t& out) {
  const double a = std::fabs(v);
  if (!(a < 1e15)) return false;
  int exp = 0;
  const double mantissa = std::frexp(a, &exp);  // a = mantissa * 2^exp, mantissa in [0.5, 1)
  const auto m = static_cast<uint64_t>(std::ldexp(mantissa, 53));
  const int e = exp - 53;
  const uint64_t n = m * 100;
  if (e >= 0) {
    out = n << e;  // a < 1e15, so a * 100 < 2^57
    return true;
  }
  const int shift = -e;
  if (shift >= 64) {  // n < 2^60 is below half of 2^shift: rounds to 0
    out = 0;
    return true;
  }
  uint64_t q = n >> shift;
  const uint64_t rest = n & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (q & 1) != 0)) ++q;
  out = q;
  return true;
}

// svg_number's text, appended: most of a report page's bytes are these numbers.
void append_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += '0';
    return;
  }
  uint64_t q = 0;
  if (!hundredths(v, q)) {  // past 1e15 px: not a drawing's number, but print it the same way
    std::string s = fmt::format("{:.2f}", v);
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    out += s;
    return;
  }
  if (v < 0 && q != 0) out += '-';  // "-0" is printed "0"
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, q / 100);
  out.append(digits, end);
  const auto cents = static_cast<int>(q % 100);
  if (cents == 0) return;
  out += '.';
  out += static_cast<char>('0' + cents / 10);
  if (cents % 10 != 0) out += static_cast<char>('0' + cents % 10);
}

}  // namespace

std::string svg_number(double v) {
  std::string s;
  append_number(s, v);
  return s;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string_view series_colour(size_t i) {
  // Okabe & Ito (2008), "Color Universal Design", without black: blue, vermillion, bluish green,
  // orange, reddish purple, sky blue, yellow, grey.
  static constexpr std::array<std::string_view, 8> kPalette{"#0072B2", "#D55E00", "#009E73", "#E69F00",
                                                            "#CC79A7", "#56B4E9", "#F0E442", "#777777"};
  return kPalette[i % kPalette.size()];
}

SvgDocument::SvgDocument(double width_px, double height_px) : width_(width_px), height_(height_px) {}

// The elements are appended piece by piece into body_: a report page draws hundreds of them,
// and going through fmt for each (and a string per number) was most of the page's cost.
namespace {
void append_attr(std::string& out, std::string_view name, double v) {
  out += ' ';
  out += name;
  out += "=\"";
  append_number(out, v);
  out += '"';
}
void append_attr(std::string& out, std::string_view name, std::string_view v) {
  out += ' ';
  out += name;
  out += "=\"";
  out += v;
  out += '"';
}
void append_dash(std::string& out, std::string_view dash) {
  if (!dash.empty()) append_attr(out, "stroke-dasharray", dash);
}
// "/>" or ">" + a <title> child + the closing tag, and the newline after the element.
void close_element(std::string& out, std::string_view tag, std::string_view tooltip) {
  if (tooltip.empty()) {
    out += "/>\n";
    return;
  }
  out += "><title>";
  out += xml_escape(tooltip);
  out += "</title></";
  out += tag;
  out += ">\n";
}
}  // namespace

void SvgDocument::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width_px,
                       std::string_view dash) {
  body_ += "<line";
  append_attr(body_, "x1", x1);
  append_attr(body_, "y1", y1);
  append_attr(body_, "x2", x2);
  append_attr(body_, "y2", y2);
  append_attr(body_, "stroke", stroke);
  append_attr(body_, "stroke-width", width_px);
  append_dash(body_, dash);
  body_ += "/>\n";
}

void SvgDocument::rect(double x, double y, double w, double h, std::string_view fill, std::string_view tooltip) {
  body_ += "<rect";
  append_attr(body_, "x", x);
  append_attr(body_, "y", y);
  append_attr(body_, "width", w);
  append_attr(body_, "height", h);
  append_attr(body_, "fill", fill);
  close_element(body_, "rect", tooltip);
}

void SvgDocument::circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke,
                         std::string_view tooltip) {
  body_ += "<circle";
  append_attr(body_, "cx", cx);
  append_attr(body_, "cy", cy);
  append_attr(body_, "r", r);
  append_attr(body_, "fill", fill);
  if (!stroke.empty()) append_attr(body_, "stroke", stroke);
  close_element(body_, "circle", tooltip);
}

void SvgDocument::polyline(std::span<const std::pair<double, double>> points, std::string_view stroke,
                           double width_px, std::string_view dash) {
  if (points.empty()) return;
  body_ += "<polyline points=\"";
  for (size_t i = 0; i < points.size(); ++i) {
    if (i > 0) body_ += ' ';
    append_number(body_, points[i].first);
    body_ += ',';
    append_number(body_, points[i].second);
  }
  body_ += "\" fill=\"none\"";
  append_attr(body_, "stroke", stroke);
  append_attr(body_, "stroke-width", width_px);
  append_dash(body_, dash);
  body_ += "/>\n";
}

void SvgDocument::text(double x, double y, std::string_view content, const TextStyle& style) {
  static constexpr std::array<std::string_view, 3> kAnchor{"start", "middle", "end"};
  body_ += "<text";
  append_attr(body_, "x", x);
  append_attr(body_, "y", y);
  append_attr(body_, "font-size", style.size_px);
  append_attr(body_, "fill", style.colour);
  append_attr(body_, "text-anchor", kAnchor[static_cast<size_t>(style.anchor)]);
  if (style.bold) body_ += " font-weight=\"bold\"";
  if (style.halo) body_ += " stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"";
  if (style.rotate_deg != 0) {
    body_ += " transform=\"rotate(";
    append_number(body_, style.rotate_deg);
    body_ += ' ';
    append_number(body_, x);
    body_ += ' ';
    append_number(body_, y);
    body_ += ")\"";
  }
  body_ += '>';
  body_ += xml_escape(content);
  body_ += "</text>\n";
}

std::string SvgDocument::finish() {
  const std::string w = svg_number(width_), h = svg_number(height_);
  std::string out;
  out.reserve(body_.size() + 128);
  out += "<svg width=\"" + w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
         "\" role=\"img\" font-family=\"sans-serif\">\n";
  out += body_;
  out += "</svg>\n";
  body_.clear();
  return out;
}

}  // namespace parallax
