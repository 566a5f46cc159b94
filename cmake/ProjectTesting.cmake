# Helpers that every tests/ subfolder uses to register its tests.
#
# add_unit_test(NAME SOURCES ... [LIBS ...] [LABELS ...])
#   A CPU test executable; it prints "N passed, N failed" and exits non-zero
#   on any failure.
# add_gpu_test(NAME SOURCES ... [LIBS ...] [LABELS ...])
#   Like add_unit_test, labelled `gpu`; without a usable GPU the executable
#   exits 77, which CTest reports as skipped (never as passed).
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
