#include "recipes/template_store.h"

#include <stdexcept>

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

// Partials are looked up in the context like variables, so they are added to
// a copy of the view's top level.
km::data with_partials(const km::data& view, const std::map<std::string, std::string>& texts) {
    km::data root = view.is_object() ? view : km::data(km::data::type::object);
    for (const auto& [name, text] : texts) {
        if (name.find('.') != std::string::npos) continue;
        const std::string* t = &text;
        root.set(name, km::partial([t] { return *t; }));
    }
    return root;
}

}  // namespace

std::string TemplateStore::render(const std::string& name, const km::data& view, Escape escape) const {
    km::mustache tmpl(text(name));
    if (!tmpl.is_valid()) throw std::logic_error("template '" + name + "': " + tmpl.error_message());
    if (escape == Escape::None) tmpl.set_custom_escape([](const std::string& s) { return s; });
    std::string out = tmpl.render(with_partials(view, texts_));
    if (!tmpl.is_valid()) throw std::logic_error("template '" + name + "': " + tmpl.error_message());
    return out;
}

}  // namespace recipe::recipes
