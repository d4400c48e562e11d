// File: sim/report/svg_document.cpp
#include "sim/report/svg_document.h"

#include <array>
#include <cmath>

#include <fmt/format.h>

namespace parallax {

std::string svg_number(double v) {
  if (!std::isfinite(v)) return "0";
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
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

namespace {
std::string dash_attr(std::string_view dash) {
  return dash.empty() ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", dash);
}
std::string title_child(std::string_view tooltip) {
  return tooltip.empty() ? std::string() : fmt::format("<title>{}</title>", xml_escape(tooltip));
}
}  // namespace

void SvgDocument::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width_px,
                       std::string_view dash) {
  body_ += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
                       svg_number(x1), svg_number(y1), svg_number(x2), svg_number(y2), stroke, svg_number(width_px),
                       dash_attr(dash));
}

void SvgDocument::rect(double x, double y, double w, double h, std::string_view fill, std::string_view tooltip) {
  const std::string head = fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"",
                                       svg_number(x), svg_number(y), svg_number(w), svg_number(h), fill);
  body_ += tooltip.empty() ? head + "/>\n" : head + ">" + title_child(tooltip) + "</rect>\n";
}

void SvgDocument::circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke,
                         std::string_view tooltip) {
  std::string head = fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"", svg_number(cx), svg_number(cy),
                                 svg_number(r), fill);
  if (!stroke.empty()) head += fmt::format(" stroke=\"{}\"", stroke);
  body_ += tooltip.empty() ? head + "/>\n" : head + ">" + title_child(tooltip) + "</circle>\n";
}

void SvgDocument::polyline(std::span<const std::pair<double, double>> points, std::string_view stroke,
                           double width_px, std::string_view dash) {
  if (points.empty()) return;
  std::string pts;
  for (const auto& [x, y] : points) {
    if (!pts.empty()) pts += ' ';
    pts += svg_number(x) + ',' + svg_number(y);
  }
  body_ += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", pts, stroke,
                       svg_number(width_px), dash_attr(dash));
}

void SvgDocument::text(double x, double y, std::string_view content, const TextStyle& style) {
  static constexpr std::array<std::string_view, 3> kAnchor{"start", "middle", "end"};
  std::string attrs = fmt::format("x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" text-anchor=\"{}\"", svg_number(x),
                                  svg_number(y), svg_number(style.size_px), style.colour,
                                  kAnchor[static_cast<size_t>(style.anchor)]);
  if (style.bold) attrs += " font-weight=\"bold\"";
  if (style.halo) attrs += " stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"";
  if (style.rotate_deg != 0)
    attrs += fmt::format(" transform=\"rotate({} {} {})\"", svg_number(style.rotate_deg), svg_number(x), svg_number(y));
  body_ += fmt::format("<text {}>{}</text>\n", attrs, xml_escape(content));
}

std::string SvgDocument::finish() {
  std::string out = fmt::format(
      "<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" font-family=\"sans-serif\">\n",
      svg_number(width_), svg_number(height_));
  out += body_;
  out += "</svg>\n";
  body_.clear();
  return out;
}

}  // namespace parallax
