#include <catch2/catch.hpp>

#include "recipes/template_store.h"

using namespace recipe::recipes;
namespace km = kainjow::mustache;

TEST_CASE("every embedded template parses and renders", "[recipes]") {
    const auto& store = TemplateStore::embedded();
    for (const char* name : {"recipe.md", "cu_prelude", "cu_kernel", "cu_call", "tile_chart.svg", "timeline_chart.svg",
                             "explain_scheme.md", "explain_copy.md", "explain_host.md", "explain_dominant.md",
                             "rejection_advice.md"}) {
        INFO(name);
        REQUIRE(store.has(name));
        CHECK_NOTHROW(store.render(name, km::data(km::data::type::object), Escape::None));
    }
    CHECK_THROWS_AS(store.text("no-such-template"), std::logic_error);
}

TEST_CASE("standalone tag lines vanish, blank lines after them stay", "[recipes]") {
    TemplateStore store(std::map<std::string, std::string>{{"t", "a\n{{#list}}\n- {{.}}\n{{/list}}\n\nb\n{{#no}}\nnever\n{{/no}}\n\nc\n"},
                         {"d", "{{=<% %>=}}\n{{<%x%>}}\n<%#no%>\nnever\n<%/no%>\nend\n"}});
    km::data v;
    km::data list{km::data::type::list};
    list.push_back(km::data("one"));
    list.push_back(km::data("two"));
    v.set("list", list);
    v.set("no", false);
    v.set("x", "<y>");
    CHECK(store.render("t", v, Escape::None) == "a\n- one\n- two\n\nb\n\nc\n");
    CHECK(store.render("d", v, Escape::None) == "{{<y>}}\nend\n");
    CHECK(store.render("d", v, Escape::Xml) == "{{&lt;y&gt;}}\nend\n");
    TemplateStore broken(std::map<std::string, std::string>{{"b", "{{#open}} never closed"}});
    CHECK_THROWS_AS(broken.render("b", v, Escape::None), std::logic_error);
}
