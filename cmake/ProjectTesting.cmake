# Helpers that every tests/ subfolder uses to register its tests.
#
# add_unit_test(NAME SOURCES ... [LIBS ...] [LABELS ...])
#   A CPU test executable; it prints "N passed, N failed" and exits non-zero
#   on any failure.
# add_gpu_test(NAME SOURCES ... [LIBS ...] [LABELS ...])
#   Like add_unit_test, labelled `gpu`; without a usable GPU the executable
#   exits 77, which CTest reports as skipped (never as passed).
# test_defaults()
#   Called (deferred) by every tests/ folder: each of its tests runs warplint
#   with one cache of compiled device code per build folder
#   (WARPLINT_DEVICE_CACHE), which the warplint_device_cache_reset test
#   empties at the start of each ctest run, before any other test; and its
#   precompiled headers in the build folder (WARPLINT_CACHE), apart from
#   the user's ~/.cache/warplint, which other warplints rewrite.
set(WARPLINT_TEST_DEVICE_CACHE ${PROJECT_BINARY_DIR}/warplint-device-cache)
function(test_defaults)
  get_property(tests DIRECTORY PROPERTY TESTS)
  list(REMOVE_ITEM tests warplint_device_cache_reset)
  if(tests)
    set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT WARPLINT_DEVICE_CACHE=${WARPLINT_TEST_DEVICE_CACHE}
                 WARPLINT_CACHE=${PROJECT_BINARY_DIR}/warplint-cache)
    set_property(TEST ${tests} APPEND PROPERTY FIXTURES_REQUIRED warplint_device_cache)
  endif()
endfunction()
function(add_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE test_support ${T_LIBS})
  project_warnings(${name})
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "cpu;${T_LABELS}")
endfunction()

function(add_gpu_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE test_support common_gpu ${T_LIBS})
  project_warnings(${name})
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "gpu;${T_LABELS}" SKIP_RETURN_CODE 77)
endfunction()
