#!/bin/sh
# Runs differential_test on the oracle output, or exits 77 (CTest: skipped) when the fixture produced none
# because node or shogiops is missing. CTest runs this test even when its fixture was skipped.
#
#   run_compare.sh DIFFERENTIAL_TEST ORACLE_FILE
set -eu
if [ ! -f "$2" ]; then
  echo "SKIP: differential test against shogiops: no oracle output at $2 (see differential_oracle's skip reason)"
  exit 77
fi
exec "$1" "$2"
