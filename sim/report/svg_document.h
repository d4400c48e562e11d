// File: sim/report/svg_document.h
// SVG text built element by element: lines, rectangles, circles, polylines and text, with every
// number printed to two decimals (trailing zeros dropped), so one drawing is one byte string on
// every machine. It knows nothing of axes or data; svg_xy_plot.h and svg_bar_chart.h map data to
// pixels and call it. The output is meant to be inlined in HTML (report.html), so it carries no
// xmlns and no external references.
//
//   SvgDocument svg(640, 360);
//   svg.line(10, 10, 100, 10, "#333");
//   svg.text(50, 30, "label", TextAnchor::middle);
//   std::string text = svg.finish();   // "<svg width=\"640\" height=\"360\" ...>...</svg>\n"
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace parallax {

// "1.5", "2", "-0.25": two decimals, trailing zeros and a "-0" removed. Non-finite values print "0".
std::string svg_number(double v);

// & < > " ' replaced by their character references.
std::string xml_escape(std::string_view text);

// The i-th colour of a colour-blind-safe palette (Okabe & Ito), cycling after eight.
std::string_view series_colour(size_t i);

enum class TextAnchor { start, middle, end };

struct TextStyle {
  TextAnchor anchor = TextAnchor::start;
  double size_px = 12;
  double rotate_deg = 0;     // about the text's own anchor point
  bool bold = false;
  std::string_view colour = "#222";
  bool halo = false;  // a white outline under the glyphs, for labels drawn over bars and lines
};

class SvgDocument {
 public:
  SvgDocument(double width_px, double height_px);

  // `dash` is an SVG stroke-dasharray ("4 3"), empty for a solid line.
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width_px = 1,
            std::string_view dash = {});
  // `tooltip` becomes a <title> child, shown by browsers on hover; empty for none.
  void rect(double x, double y, double w, double h, std::string_view fill, std::string_view tooltip = {});
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke = {},
              std::string_view tooltip = {});
  void polyline(std::span<const std::pair<double, double>> points, std::string_view stroke, double width_px = 1.5,
                std::string_view dash = {});
  void text(double x, double y, std::string_view content, const TextStyle& style = {});

  double width() const { return width_; }
  double height() const { return height_; }

  // The complete <svg> element followed by "\n". The document is empty afterwards.
  std::string finish();

 private:
  double width_, height_;
  std::string body_;
};

}  // namespace parallax
