// The plotting library every HTML report inlines (Vega 5, Vega-Lite 5 and vega-embed 6, fetched by npm at
// build time from report_js/package-lock.json and embedded in the binary), so that a report opens offline.
#pragma once

#include <string>

namespace sonicsim {

const std::string& report_javascript();

} // namespace sonicsim
