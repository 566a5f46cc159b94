# FindLLVMDevice: what warplint's device-code path needs beside libclang
# (advisor/device.c, ir.c): the LLVM C API (llvm-c/Core.h and libLLVM, from
# Debian's llvm-22-dev) to read device IR, and the clang driver (clang-22)
# that compiles device code. Both are taken from the LLVM installation of
# libclang (find_package(LibClang) first), so that the compile and the
# parse agree on the language.
#
# Result: target LLVM::C, LLVMDevice_FOUND, LLVMDevice_CLANG (the clang
# executable), LLVMDevice_INCLUDE_DIR, LLVMDevice_LIBRARY.

set(_llvm_hints)
if(LibClang_INCLUDE_DIR)
  get_filename_component(_llvm_prefix "${LibClang_INCLUDE_DIR}" DIRECTORY)
  list(APPEND _llvm_hints "${_llvm_prefix}")
endif()
foreach(root IN ITEMS "${LLVM_ROOT}" "$ENV{LLVM_ROOT}")
  if(root)
    list(APPEND _llvm_hints "${root}")
  endif()
endforeach()

find_path(LLVMDevice_INCLUDE_DIR llvm-c/Core.h HINTS ${_llvm_hints} PATH_SUFFIXES include NO_DEFAULT_PATH)
find_library(LLVMDevice_LIBRARY NAMES LLVM LLVM-22 LLVM-21 LLVM-20 LLVM-19 LLVM-18 LLVM-17
  HINTS ${_llvm_hints} PATH_SUFFIXES lib NO_DEFAULT_PATH)
set(_clang_names clang)
if(LibClang_VERSION MATCHES "^([0-9]+)")
  list(PREPEND _clang_names clang-${CMAKE_MATCH_1})
endif()
find_program(LLVMDevice_CLANG NAMES ${_clang_names} HINTS ${_llvm_hints} PATH_SUFFIXES bin NO_DEFAULT_PATH)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LLVMDevice
  REQUIRED_VARS LLVMDevice_LIBRARY LLVMDevice_INCLUDE_DIR LLVMDevice_CLANG
  REASON_FAILURE_MESSAGE
    "warplint compiles device code with clang and reads it through the LLVM C API, from the same LLVM \
as libclang. On Debian/Ubuntu: apt-get install llvm-22-dev clang-22 (or run scripts/install-deps.sh).")

if(LLVMDevice_FOUND AND NOT TARGET LLVM::C)
  add_library(LLVM::C UNKNOWN IMPORTED)
  set_target_properties(LLVM::C PROPERTIES
    IMPORTED_LOCATION "${LLVMDevice_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LLVMDevice_INCLUDE_DIR}")
endif()
mark_as_advanced(LLVMDevice_INCLUDE_DIR LLVMDevice_LIBRARY LLVMDevice_CLANG)
