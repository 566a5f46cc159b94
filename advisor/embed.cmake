# Turns a file into a C source holding its bytes, so that warplint carries
# its rule catalog and CUDA shim inside the binary.
#   cmake -DINPUT=f -DOUTPUT=f.c -DSYMBOL=name -P embed.cmake
# With -DINPUT_DIR=d instead of INPUT: every file under d (subfolders too,
# any extension: cub/cub.cuh, cuda/std/type_traits), as a table of
# wl_shim_header {name relative to d, text, size} named SYMBOL with
# SYMBOL_count entries.

# Sets out_bytes to "0x..,0x..,..." (16 a line) and out_size for file.
function(embed_bytes file out_bytes out_size)
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
  set(${out_bytes} "${bytes}" PARENT_SCOPE)
  set(${out_size} ${size} PARENT_SCOPE)
endfunction()

if(DEFINED INPUT_DIR)
  file(GLOB_RECURSE headers RELATIVE "${INPUT_DIR}" "${INPUT_DIR}/*")
  list(SORT headers)
  set(text "/* Generated from ${INPUT_DIR} by advisor/embed.cmake; do not edit. */\n")
  string(APPEND text "#include \"warplint.h\"\n")
  set(table "")
  set(i 0)
  foreach(h IN LISTS headers)
    embed_bytes("${INPUT_DIR}/${h}" bytes size)
    string(APPEND text "static const unsigned char header_${i}[] = {\n${bytes}0x00};\n")
    string(APPEND table "  {\"${h}\", (const char *)header_${i}, ${size}},\n")
    math(EXPR i "${i} + 1")
  endforeach()
  string(APPEND text "const wl_shim_header ${SYMBOL}[] = {\n${table}};\n"
                     "const size_t ${SYMBOL}_count = ${i};\n")
else()
  embed_bytes("${INPUT}" bytes size)
  set(text "/* Generated from ${INPUT} by advisor/embed.cmake; do not edit. */\n")
  string(APPEND text "#include <stddef.h>\n"
                     "const unsigned char ${SYMBOL}[] = {\n${bytes}0x00};\n"
                     "const size_t ${SYMBOL}_size = ${size};\n")
endif()
file(WRITE "${OUTPUT}.tmp" "${text}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
