# Names of durations: an identifier that holds seconds ends in `_s` (`iteration_s`,
# `interLatency_s`, `kNvlsLatency_s`), never in a bare capital S (`interLatencyS`), so one
# quantity has one spelling. Rates (`nicBytesPerS`, `tokensPerS`) are per second and keep theirs.
#   cmake -DROOTS=<folder>[,<folder>...] -P check_seconds_names.cmake
# Scans every .h and .cpp below the folders for identifiers ending in a time word plus S
# (latency, window, period, gap, delay, interval, span, duration, start, end, lead, chunk, cap,
# step, sync, compute, observed, saturated, overlap, horizon, warmup, spacing, iteration, time),
# except the planted trees (folders named planted*), and
# prints one line per hit ("fabric/x.h:12: burstGapS: seconds end in _s") and fails on any.
if(NOT DEFINED ROOTS)
  message(FATAL_ERROR "check_seconds_names.cmake: pass -DROOTS=<folder>[,<folder>...]")
endif()
string(REPLACE "," ";" ROOTS "${ROOTS}")

set(word "[Ll]atency|[Ww]indow|[Pp]eriod|[Gg]ap|[Dd]elay|[Ii]nterval|[Ss]pan|[Dd]uration")
string(APPEND word "|[Ss]tart|[Ee]nd|[Ll]ead|[Cc]hunk|[Cc]ap|[Ss]tep|[Ss]ync|[Cc]ompute")
string(APPEND word "|[Oo]bserved|[Ss]aturated|[Oo]verlap|[Hh]orizon|[Ww]armup|[Ss]pacing")
string(APPEND word "|[Ii]teration|[Tt]ime")
set(name "[A-Za-z][A-Za-z0-9]*(${word})S")

set(violations 0)
set(files_checked 0)
foreach(root IN LISTS ROOTS)
  get_filename_component(root "${root}" ABSOLUTE)
  file(GLOB_RECURSE sources RELATIVE ${root} ${root}/*.h ${root}/*.cpp)
  foreach(source IN LISTS sources)
    if(source MATCHES "(^|/)planted[^/]*/")
      continue()  # the planted trees of the layering and name checks break the rules on purpose
    endif()
    math(EXPR files_checked "${files_checked} + 1")
    file(STRINGS ${root}/${source} lines)
    set(number 0)
    foreach(line IN LISTS lines)
      math(EXPR number "${number} + 1")
      # Pad so that a name at either end of the line has a non-identifier neighbour.
      string(REGEX MATCHALL "[^A-Za-z0-9_]${name}[^A-Za-z0-9_]" hits " ${line} ")
      foreach(hit IN LISTS hits)
        string(REGEX REPLACE "^[^A-Za-z0-9_]|[^A-Za-z0-9_]$" "" hit "${hit}")
        message("${source}:${number}: ${hit}: seconds end in _s")
        math(EXPR violations "${violations} + 1")
      endforeach()
    endforeach()
  endforeach()
endforeach()

if(files_checked EQUAL 0)
  message(FATAL_ERROR "check_seconds_names.cmake: no .h or .cpp below ${ROOTS}")
endif()
if(violations GREATER 0)
  message(FATAL_ERROR "${violations} duration name(s) ending in S instead of _s")
endif()
message("${files_checked} files: every duration name ends in _s")
