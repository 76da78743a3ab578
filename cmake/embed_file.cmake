# Writes a C++ source holding a file's bytes as an array: cmake -DINPUT=file -DOUTPUT=out.cpp -DNAMESPACE=ns
# -DSYMBOL=name -P embed_file.cmake. The array is `const unsigned char SYMBOL[]` with `SYMBOL_size` beside it.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Lines of 32 bytes keep the generated file readable in an editor and a compiler's diagnostics.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
     "// Generated from ${INPUT} by cmake/embed_file.cmake: do not edit.\n#include <cstddef>\n"
     "namespace ${NAMESPACE} {\nextern const unsigned char ${SYMBOL}[] = {\n${bytes}};\n"
     "extern const std::size_t ${SYMBOL}_size = sizeof(${SYMBOL});\n}  // namespace ${NAMESPACE}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
