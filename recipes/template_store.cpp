#include "recipes/template_store.h"

#include <memory>
#include <stdexcept>
#include <utility>

namespace recipe::recipes {

namespace km = kainjow::mustache;

const TemplateStore& TemplateStore::embedded() {
    static const TemplateStore store = [] {
        std::map<std::string, std::string> texts;
        for (const auto* t = detail::kEmbeddedTemplates; t->name; ++t)
            texts.emplace(t->name, std::string(reinterpret_cast<const char*>(t->text), t->size));
        return TemplateStore(std::move(texts));
    }();
    return store;
}

const std::string& TemplateStore::text(const std::string& name) const {
    const auto it = texts_.find(name);
    if (it == texts_.end()) throw std::logic_error("template '" + name + "' is missing");
    return it->second;
}

namespace {

// Mustache's "standalone" rule, applied to the template text before kainjow
// sees it, because kainjow applies it unevenly (it keeps the newline of an
// empty section's line, eats the blank line after some closing tags): a line
// holding only blanks and one section, inverted-section, closing, comment or
// set-delimiter tag vanishes, its tag joining the start of the next line. A
// blank line right after such a tag is written as {{__newline}}, which
// kainjow cannot mistake for a standalone line.
std::string join_standalone_tags(const std::string& text) {
    std::string open = "{{", close = "}}";
    std::string out;
    bool after_tag = false;  // `out` ends with a joined standalone tag
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        const bool has_nl = nl != std::string::npos;
        if (!has_nl) nl = text.size();
        const std::string line = text.substr(at, nl - at);
        at = has_nl ? nl + 1 : text.size();
        const std::size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos) {  // a blank line
            out += after_tag && has_nl ? open + "__newline" + close : line + (has_nl ? "\n" : "");
            after_tag = false;
            continue;
        }
        const std::size_t e = line.find_last_not_of(" \t\r");
        bool standalone = false;
        if (line.compare(b, open.size(), open) == 0 && e + 1 >= b + open.size() + close.size() &&
            line.compare(e + 1 - close.size(), close.size(), close) == 0) {
            const std::string tag = line.substr(b, e + 1 - b);
            const char kind = tag[open.size()];
            const bool one_tag = tag.find(open, open.size()) == std::string::npos;
            standalone = one_tag && (kind == '#' || kind == '^' || kind == '/' || kind == '!' || kind == '=');
            if (standalone) {
                out += tag;
                if (kind == '=') {
                    // {{=<% %>=}}: the new delimiters hold from here on.
                    const std::string inner = tag.substr(open.size() + 1, tag.size() - open.size() - close.size() - 2);
                    const auto space = inner.find(' ');
                    open = inner.substr(0, space);
                    close = inner.substr(inner.find_first_not_of(' ', space));
                }
            }
        }
        if (!standalone) out += line + (has_nl ? "\n" : "");
        after_tag = standalone;
    }
    return out;
}

}  // namespace

TemplateStore::TemplateStore(std::map<std::string, std::string> texts) : texts_(std::move(texts)) {
    for (const auto& [name, text] : texts_) {
        joined_[name] = join_standalone_tags(text);
        if (name.find('.') == std::string::npos) partials_.set(name, km::partial([t = text] { return t; }));
    }
    partials_.set("__newline", "\n");
}

// Parsing a template costs more than rendering it, and a file of thousands
// of nests renders the same templates thousands of times: each thread keeps
// what it has parsed, by text and escape. (A parsed template is not shared
// between threads: kainjow keeps its escape function and its error in it.)
km::mustache& TemplateStore::parsed(const std::string& text, Escape escape) {
    thread_local std::map<std::pair<Escape, std::string>, std::unique_ptr<km::mustache>> cache;
    auto& slot = cache[{escape, text}];
    if (!slot || !slot->is_valid()) {
        slot = std::make_unique<km::mustache>(text);
        if (escape == Escape::None) slot->set_custom_escape([](const std::string& s) { return s; });
    }
    return *slot;
}

std::string TemplateStore::render(const std::string& name, const km::data& view, Escape escape) const {
    static const km::data empty(km::data::type::object);
    return render(name, view, empty, escape);
}

std::string TemplateStore::render(const std::string& name, const km::data& view, const km::data& outer,
                                  Escape escape) const {
    text(name);  // a missing template is a bug
    km::mustache& tmpl = parsed(joined_.at(name), escape);
    if (!tmpl.is_valid()) throw std::logic_error("template '" + name + "': " + tmpl.error_message());
    // Partials are looked up like variables, before the view's own names.
    km::context<std::string> context(&outer);
    if (view.is_object()) context.push(&view);
    context.push(&partials_);
    std::string out = tmpl.render(context);
    if (!tmpl.is_valid()) throw std::logic_error("template '" + name + "': " + tmpl.error_message());
    return out;
}

}  // namespace recipe::recipes
