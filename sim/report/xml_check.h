// File: sim/report/xml_check.h
// A minimal well-formedness check for the SVG that report.html inlines: every element is closed
// in order, attribute values are quoted, and only the five predefined entities and numeric
// character references appear. Not a validating parser: no DTDs, no namespaces, no CDATA. Tests use
// it to check each <svg>…</svg> of a page without pulling in an XML library.
#pragma once

#include <string>
#include <string_view>

namespace parallax {

// "" when `xml` is well formed by the rules above; otherwise what is wrong and at which offset.
std::string xml_shape_error(std::string_view xml);

}  // namespace parallax
