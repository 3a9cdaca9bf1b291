// recipe_text.h — small pieces of text the recipe views share: markdown
// table cells, lists joined in prose, names of the advisor's choices, and the
// one-line explanations rendered from the explain_*.md templates.
#pragma once

#include <string>
#include <vector>

#include <kainjow/mustache.hpp>

#include "advisor/plan.h"
#include "analyzer/program.h"
#include "recipes/advise.h"
#include "recipes/template_store.h"

namespace recipe::recipes::text {

namespace km = kainjow::mustache;

// A table cell holding code: `|` would end the cell.
std::string cell(std::string text);
// "20–30", or "20" for one line.
std::string lines(int first, int last);
// Renders an explanation template (one paragraph chosen by flags) and joins
// its non-empty lines into one.
std::string explain(const TemplateStore& t, const std::string& name, const km::data& flags);
// A view with one flag set.
km::data flag(const std::string& name);
// "`a`, `b` and `c`"
std::string and_list(const std::vector<std::string>& names);

const char* verdict_text(Verdict v);
const char* host_text(advisor::HostStrategy s);
const char* dominant_flag(advisor::Operation o);
const char* dominant_text(advisor::Operation o);
const char* copy_flag(CopyMethod m);
// "`W` = 8000", "`16`", "8000"
std::string extent_text(const analyzer::Extent& e);
// "x 1 / 1, y 1 / 1" (below / above per dimension), "none"
std::string reach_text(const Halo& h, int dims);

// A list of views made by `fill`, each with `last` set for joining.
template <class T, class F>
km::data list_of(const std::vector<T>& items, F&& fill) {
    km::data list{km::data::type::list};
    for (std::size_t i = 0; i < items.size(); ++i) {
        km::data d;
        fill(d, items[i]);
        d.set("last", i + 1 == items.size());
        list.push_back(d);
    }
    return list;
}

}  // namespace recipe::recipes::text
