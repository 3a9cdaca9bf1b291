# recipe_embed_files(NAME DIR EXTENSION HEADER NAMESPACE TYPE ARRAY): at
# build time, writes every DIR/*EXTENSION as a byte array of the C++ array
# ARRAY (cmake/embed_files.cmake) and adds it to recipe_core, so the binary
# carries its data (templates, stored profiles) wherever it is copied. The
# rule belongs to a target of the calling directory, recipe_embedded_NAME,
# which recipe_core (made in the top directory) depends on.
function(recipe_embed_files name dir extension header namespace type array)
  file(GLOB files CONFIGURE_DEPENDS ${dir}/*${extension})
  set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded_${name}.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DDIR=${dir} -DEXTENSION=${extension} -DHEADER=${header} -DNAMESPACE=${namespace}
            -DTYPE=${type} -DARRAY=${array} -DOUTPUT=${output} -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "Embedding ${dir}/*${extension}"
    VERBATIM)
  add_custom_target(recipe_embedded_${name} DEPENDS ${output})
  add_dependencies(recipe_core recipe_embedded_${name})
  target_sources(recipe_core PRIVATE ${output})
endfunction()
