# FindLibClang: the libclang C API (clang-c/Index.h), version 17 or newer,
# because clang_getCursorBinaryOperatorKind first appears in 17.
#
# Prefers LLVM 22 (Debian's libclang-22-dev: the first whose CUDA support
# parses the CUDA 13 headers, see advisor/README.md), then other versions
# newest first. Set LibClang_ROOT (or LLVM_ROOT) to point at another installation.
#
# Result: target LibClang::LibClang, LibClang_FOUND, LibClang_VERSION,
# LibClang_INCLUDE_DIR, LibClang_LIBRARY, LibClang_RESOURCE_DIR (the clang
# resource directory holding clang's own headers, or empty).

set(_libclang_versions 22 21 20 19 18 17)
set(_libclang_hints)
foreach(root IN ITEMS "${LibClang_ROOT}" "$ENV{LibClang_ROOT}" "${LLVM_ROOT}" "$ENV{LLVM_ROOT}")
  if(root)
    list(APPEND _libclang_hints "${root}")
  endif()
endforeach()
foreach(v IN LISTS _libclang_versions)
  list(APPEND _libclang_hints /usr/lib/llvm-${v} /usr/local/opt/llvm@${v} /opt/homebrew/opt/llvm@${v})
endforeach()

find_path(LibClang_INCLUDE_DIR clang-c/Index.h
  HINTS ${_libclang_hints} PATH_SUFFIXES include NO_DEFAULT_PATH)
find_path(LibClang_INCLUDE_DIR clang-c/Index.h)
if(LibClang_INCLUDE_DIR)
  get_filename_component(_libclang_prefix "${LibClang_INCLUDE_DIR}" DIRECTORY)
  find_library(LibClang_LIBRARY NAMES clang libclang
    HINTS "${_libclang_prefix}/lib" NO_DEFAULT_PATH)
endif()
find_library(LibClang_LIBRARY NAMES clang libclang clang-22 clang-21 clang-20 clang-19 clang-18 clang-17)

# The C API reports its version in CINDEX_VERSION_MINOR; map it to the LLVM
# release through llvm-config when it sits beside the library, else through
# the path (/usr/lib/llvm-NN/...).
set(LibClang_VERSION "")
if(LibClang_INCLUDE_DIR)
  get_filename_component(_libclang_prefix "${LibClang_INCLUDE_DIR}" DIRECTORY)
  if(EXISTS "${_libclang_prefix}/bin/llvm-config")
    execute_process(COMMAND "${_libclang_prefix}/bin/llvm-config" --version
      OUTPUT_VARIABLE LibClang_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(NOT LibClang_VERSION AND _libclang_prefix MATCHES "llvm-?@?([0-9]+)")
    set(LibClang_VERSION "${CMAKE_MATCH_1}")
  endif()
  file(GLOB _libclang_resource LIST_DIRECTORIES true "${_libclang_prefix}/lib/clang/*")
  if(_libclang_resource)
    list(GET _libclang_resource 0 LibClang_RESOURCE_DIR)
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibClang
  REQUIRED_VARS LibClang_LIBRARY LibClang_INCLUDE_DIR
  VERSION_VAR LibClang_VERSION
  REASON_FAILURE_MESSAGE
    "warplint needs the libclang C API, version 17 or newer. On Debian/Ubuntu: \
apt-get install libclang-22-dev (or run scripts/install-deps.sh), elsewhere set LibClang_ROOT.")

if(LibClang_FOUND AND NOT TARGET LibClang::LibClang)
  add_library(LibClang::LibClang UNKNOWN IMPORTED)
  set_target_properties(LibClang::LibClang PROPERTIES
    IMPORTED_LOCATION "${LibClang_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LibClang_INCLUDE_DIR}")
endif()
mark_as_advanced(LibClang_INCLUDE_DIR LibClang_LIBRARY)
