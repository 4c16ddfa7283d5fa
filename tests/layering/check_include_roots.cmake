# One file per include: the GUI compiles with core/, fileio/ and ui/ all as include directories,
# and ui/ has folders named like core's modules (ui/mosaic beside core/mosaic, ui/mlforml beside
# core/mlforml). An include such as "mosaic/search.h" names one file only while no relative path
# stands under two of those roots; this check keeps it so (a ui header takes a name core does not
# use, and the other way round).
#   cmake -DROOTS=<include root>,<include root>... -P check_include_roots.cmake
# Prints one line per path found under two roots ("mosaic/x.h is both core/mosaic/x.h and
# ui/mosaic/x.h") and fails when there is any.
if(NOT DEFINED ROOTS)
  message(FATAL_ERROR "check_include_roots.cmake: pass -DROOTS=<include roots, comma-separated>")
endif()
string(REPLACE "," ";" ROOTS "${ROOTS}")

set(clashes 0)
set(headers_checked 0)
set(seen "")
foreach(root IN LISTS ROOTS)
  get_filename_component(root "${root}" ABSOLUTE)
  if(NOT IS_DIRECTORY ${root})
    message(FATAL_ERROR "check_include_roots.cmake: no folder ${root}")
  endif()
  get_filename_component(root_name "${root}" NAME)
  file(GLOB_RECURSE headers RELATIVE ${root} ${root}/*.h)
  foreach(header IN LISTS headers)
    math(EXPR headers_checked "${headers_checked} + 1")
    string(MAKE_C_IDENTIFIER "${header}" id)
    if(DEFINED first_${id})
      message("${header} is both ${first_${id}}/${header} and ${root_name}/${header}")
      math(EXPR clashes "${clashes} + 1")
    else()
      set(first_${id} ${root_name})
    endif()
  endforeach()
endforeach()

if(headers_checked EQUAL 0)
  message(FATAL_ERROR "check_include_roots.cmake: no header under ${ROOTS}")
endif()
if(clashes GREATER 0)
  message(FATAL_ERROR "${clashes} header path(s) under two include roots "
                      "(${headers_checked} headers checked)")
endif()
message("every include names one header (${headers_checked} headers checked)")
