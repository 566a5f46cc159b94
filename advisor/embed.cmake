# Turns a file into a C source holding its bytes, so that warplint carries
# its rule catalog and CUDA shim inside the binary.
#   cmake -DINPUT=f -DOUTPUT=f.c -DSYMBOL=name -P embed.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "/* Generated from ${INPUT} by advisor/embed.cmake; do not edit. */\n"
  "#include <stddef.h>\n"
  "const unsigned char ${SYMBOL}[] = {\n${bytes}0x00};\n"
  "const size_t ${SYMBOL}_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
