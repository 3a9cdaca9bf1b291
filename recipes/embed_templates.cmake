# Writes a C++ source holding every templates/*.mustache as a byte array, so
# the `recipe` binary carries its templates and works wherever it is copied.
# Run at build time: cmake -DTEMPLATE_DIR=... -DOUTPUT=... -P embed_templates.cmake
file(GLOB files RELATIVE "${TEMPLATE_DIR}" "${TEMPLATE_DIR}/*.mustache")
list(SORT files)
set(arrays "")
set(entries "")
set(index 0)
foreach(file IN LISTS files)
  file(READ "${TEMPLATE_DIR}/${file}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n    " bytes "${bytes}")
  string(REGEX REPLACE "\\.mustache$" "" name "${file}")
  string(APPEND arrays "// ${file}\nconst unsigned char t${index}[] = {\n    ${bytes}0x00};\n")
  string(APPEND entries "    {\"${name}\", t${index}, sizeof(t${index}) - 1},\n")
  math(EXPR index "${index} + 1")
endforeach()
set(text "// Generated from templates/*.mustache by recipes/embed_templates.cmake. Do not edit.
#include \"recipes/template_store.h\"

namespace recipe::recipes::detail {
namespace {
${arrays}}  // namespace

const EmbeddedTemplate kEmbeddedTemplates[] = {
${entries}    {nullptr, nullptr, 0},
};

}  // namespace recipe::recipes::detail
")
file(WRITE "${OUTPUT}.new" "${text}")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.new")
