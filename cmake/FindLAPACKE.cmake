# FindLAPACKE: the C interface to LAPACK (lapacke.h), with OpenBLAS for BLAS
# (cblas.h). Used by the CPU side of the MNF study.
#
# Result: target LAPACKE::LAPACKE (LAPACKE + LAPACK + OpenBLAS), LAPACKE_FOUND.

find_path(LAPACKE_INCLUDE_DIR lapacke.h PATH_SUFFIXES openblas)
find_library(LAPACKE_LIBRARY NAMES lapacke)
find_path(OpenBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas openblas-pthread)
find_library(OpenBLAS_LIBRARY NAMES openblas)
# Debian's liblapacke links to the reference LAPACK, which the alternatives
# system points at OpenBLAS's optimised LAPACK when libopenblas is installed.
find_library(LAPACK_LIBRARY NAMES lapack)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LAPACKE
  REQUIRED_VARS LAPACKE_LIBRARY LAPACKE_INCLUDE_DIR OpenBLAS_LIBRARY OpenBLAS_INCLUDE_DIR
  REASON_FAILURE_MESSAGE
    "the MNF study needs LAPACKE and OpenBLAS. On Debian/Ubuntu: \
apt-get install liblapacke-dev libopenblas-dev (or run scripts/install-deps.sh).")

if(LAPACKE_FOUND AND NOT TARGET LAPACKE::LAPACKE)
  add_library(LAPACKE::LAPACKE INTERFACE IMPORTED)
  set(_lapacke_libs ${LAPACKE_LIBRARY})
  if(LAPACK_LIBRARY)
    list(APPEND _lapacke_libs ${LAPACK_LIBRARY})
  endif()
  list(APPEND _lapacke_libs ${OpenBLAS_LIBRARY} m)
  set_target_properties(LAPACKE::LAPACKE PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${LAPACKE_INCLUDE_DIR};${OpenBLAS_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${_lapacke_libs}")
endif()
mark_as_advanced(LAPACKE_INCLUDE_DIR LAPACKE_LIBRARY OpenBLAS_INCLUDE_DIR OpenBLAS_LIBRARY LAPACK_LIBRARY)
