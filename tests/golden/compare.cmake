# compare.cmake — one golden test of a source back end:
#   cmake -DKCC=kcc -DSRC=NAME.k -DFORM=cl|cuda -DEXPECTED=NAME.cl -DACTUAL=out/NAME.cl -P compare.cmake
# Runs `kcc SRC --emit=FORM -o -`, keeps what it printed in ACTUAL and fails with a unified
# diff when it is not byte for byte EXPECTED. To accept a deliberate change of the output,
# copy ACTUAL over EXPECTED (the failure message says how).
foreach(v KCC SRC FORM EXPECTED ACTUAL)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "compare.cmake: -D${v}= is missing")
  endif()
endforeach()

execute_process(COMMAND ${KCC} ${SRC} --emit=${FORM} -o -
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kcc ${SRC} --emit=${FORM} failed (exit ${rc}):\n${err}")
endif()
file(WRITE ${ACTUAL} "${out}")
# diff prints straight to the test's output (message() would reflow it).
execute_process(COMMAND diff -u ${EXPECTED} ${ACTUAL} RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "kcc --emit=${FORM} output differs from ${EXPECTED} (diff above).\n"
    "If the change is intended: cp ${ACTUAL} ${EXPECTED}")
endif()
