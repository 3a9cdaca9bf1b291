# Writes a C++ source holding every DIR/*EXTENSION file as a byte array, so
# the `recipe` binary carries its data (templates, stored platform profiles)
# and works wherever it is copied. Run at build time:
#   cmake -DDIR=... -DEXTENSION=.json -DHEADER=advisor/platform.h
#         -DNAMESPACE=recipe::advisor::detail -DTYPE=EmbeddedFile
#         -DARRAY=kEmbeddedPlatforms -DOUTPUT=... -P embed_files.cmake
# TYPE is a struct {const char* name; const unsigned char* text; size_t size;}
# declared in HEADER; the array ends with a null name.
file(GLOB files RELATIVE "${DIR}" "${DIR}/*${EXTENSION}")
list(SORT files)
set(arrays "")
set(entries "")
set(index 0)
foreach(file IN LISTS files)
  file(READ "${DIR}/${file}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n    " bytes "${bytes}")
  string(LENGTH "${EXTENSION}" extension_length)
  string(LENGTH "${file}" file_length)
  math(EXPR name_length "${file_length} - ${extension_length}")
  string(SUBSTRING "${file}" 0 ${name_length} name)
  string(APPEND arrays "// ${file}\nconst unsigned char t${index}[] = {\n    ${bytes}0x00};\n")
  string(APPEND entries "    {\"${name}\", t${index}, sizeof(t${index}) - 1},\n")
  math(EXPR index "${index} + 1")
endforeach()
set(text "// Generated from the files *${EXTENSION} of one directory by cmake/embed_files.cmake. Do not edit.
#include \"${HEADER}\"

namespace ${NAMESPACE} {
namespace {
${arrays}}  // namespace

const ${TYPE} ${ARRAY}[] = {
${entries}    {nullptr, nullptr, 0},
};

}  // namespace ${NAMESPACE}
")
file(WRITE "${OUTPUT}.new" "${text}")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.new")
