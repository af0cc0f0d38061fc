#!/bin/sh
# A nightly job that reports to its human and asks before retrying.
#
#   CREWLINE_SESSION_KEY=crw_s_… CREWLINE_URL=http://127.0.0.1:8765 sh examples/shell_agent.sh
#
# `crewline escalate --wait` blocks this script (never crewline) until the human answers;
# its exit status says how it ended: 0 answered, 3 window closed, 4 timed out.
set -u

crewline post "Nightly build: the integration tests failed on arm64." >/dev/null

answer=$(crewline escalate "Nightly build failed on arm64. Retry it?" \
    --option retry --option skip \
    --deadline PT30M --default skip \
    --wait 1800)
status=$?

case $status in
    0) crewline post "Understood: $answer." >/dev/null ;;
    3) crewline post "No answer before the deadline: skipping, as announced." >/dev/null ;;
    4) crewline post "Still no answer; leaving the build as it is." >/dev/null ;;
    *) exit $status ;;
esac
echo "$answer"
