// svg_charts.h — the pictures of a plan, as SVG rendered from templates:
// predicted run time against tile size for every scheme with the chosen
// point marked (thesis Fig. 7.1 / 7.8), and the chosen plan's pipeline on
// the copy and kernel engines (thesis Figs. 6.9-6.13). This file only
// computes coordinates and labels; the templates draw.
#pragma once

#include <string>
#include <vector>

#include "advisor/plan.h"
#include "recipes/template_store.h"

namespace recipe::recipes {

// "12.3" style fixed-point text for coordinates and times.
std::string fixed(double value, int decimals);

// An estimate of how wide `text` is drawn at `size` pixels (the charts' font,
// or the wider DejaVu Sans it falls back to), for fitting labels.
double text_width(const std::string& text, double size, bool bold);

std::string render_tile_chart(const TemplateStore& templates, const advisor::Plan& plan, const std::string& title);

// `events` from advisor::timeline(); `total_tiles` is the plan's tile count.
// A "break" event becomes a cut in the time axis that says what it stands
// for, a "total" event a labelled mark at the prediction's total.
std::string render_timeline_chart(const TemplateStore& templates, const std::vector<advisor::TimelineEvent>& events,
                                  std::int64_t total_tiles, const std::string& title);

}  // namespace recipe::recipes
