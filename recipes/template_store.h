// template_store.h — the Mustache templates every output is rendered from.
// They live in templates/*.mustache and are embedded into the binary at build
// time (recipes/embed_templates.cmake), so an installed or copied `recipe`
// needs no data files to find; tests can build a store from any texts.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include <kainjow/mustache.hpp>

namespace recipe::recipes {

namespace detail {
struct EmbeddedTemplate {
    const char* name;  // file name without ".mustache"
    const unsigned char* text;
    std::size_t size;
};
extern const EmbeddedTemplate kEmbeddedTemplates[];  // ends with a null name
}  // namespace detail

// How rendered values are escaped: SVG needs XML escaping, while markdown and
// C++ must show the user's code exactly as written.
enum class Escape { None, Xml };

class TemplateStore {
public:
    explicit TemplateStore(std::map<std::string, std::string> texts);

    // The templates built into the binary.
    static const TemplateStore& embedded();

    bool has(const std::string& name) const { return texts_.count(name) > 0; }
    // A template the code asks for must exist: a missing one is a bug.
    const std::string& text(const std::string& name) const;
    const std::map<std::string, std::string>& all() const { return texts_; }

    // Renders template `name` with `view`. Every template whose name has no
    // '.' is also available as a partial ({{> cu_kernel}}). A template that
    // does not parse throws std::logic_error.
    std::string render(const std::string& name, const kainjow::mustache::data& view, Escape escape) const;
    // The same, with `view`'s missing names looked up in `outer` (one part of
    // a larger text, rendered alone: a section of a list).
    std::string render(const std::string& name, const kainjow::mustache::data& view, const kainjow::mustache::data& outer,
                       Escape escape) const;

private:
    static kainjow::mustache::mustache& parsed(const std::string& text, Escape escape);

    std::map<std::string, std::string> texts_;
    std::map<std::string, std::string> joined_;  // with standalone tags joined, as rendered
    kainjow::mustache::data partials_{kainjow::mustache::data::type::object};  // every template usable as {{> name}}
};

}  // namespace recipe::recipes
