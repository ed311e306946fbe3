# polyasm.cmake: assemble programs with polyasm as part of a CMake build (CMake 3.20 or later).
#
#   list(APPEND CMAKE_MODULE_PATH "path/to/polyasm/cmake")
#   include(polyasm)
#   polyasm_add_program(<target>
#     SOURCES <file>...             sources, relative to the current source folder
#     FORMAT <format>               polyasm's output format (-f): c, vshinc, bin, hex, ...
#     [TARGET_DIALECT <dialect>]    -t: the dialect, when the extensions do not say it
#     [OUTPUT_DIR <dir>]            where the outputs go [default: <binary dir>/<target>]
#     [INCLUDE_DIRS <dir>...]       -I: folders included files are looked for in
#     [OPTIONS <arg>...])           more arguments for polyasm, as they are
#
# Each source is assembled to <OUTPUT_DIR>/<stem>.<extension of the format> (mvp.vsh with FORMAT
# vshinc gives mvp.vshinc, tint.pp with FORMAT c gives tint.h) whenever it, a file it
# includes, or polyasm changes: polyasm writes a depfile beside each output (--depfile), which
# CMake reads with the Makefile and Ninja generators. <target> is an INTERFACE library whose
# include folder is OUTPUT_DIR: linking it builds the outputs first and lets C and C++ code
# `#include "mvp.vshinc"`.
#
# polyasm is found on PATH; set the cache variable POLYASM_EXECUTABLE to use another.

include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "polyasm.cmake needs CMake 3.20 or later (for DEPFILE with every generator); this is ${CMAKE_VERSION}")
endif()

find_program(POLYASM_EXECUTABLE polyasm DOC "The polyasm assembler that polyasm_add_program runs")

# The extension polyasm's output format <format> is written with.
function(_polyasm_extension format result)
  string(TOLOWER "${format}" format)
  if(format STREQUAL "c")
    set(extension "h")
  elseif(format STREQUAL "rust")
    set(extension "rs")
  elseif(format STREQUAL "listing")
    set(extension "lst")
  elseif(format STREQUAL "exe")
    set(extension "exe")
  else()
    # bin, hex, json, vshinc, mbs, wgsl, glsl: the format's own name.
    set(extension "${format}")
  endif()
  set(${result} "${extension}" PARENT_SCOPE)
endfunction()

function(polyasm_add_program target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "FORMAT;TARGET_DIALECT;OUTPUT_DIR" "SOURCES;INCLUDE_DIRS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "polyasm_add_program(${target}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "polyasm_add_program(${target}): give the sources with SOURCES")
  endif()
  if(NOT arg_FORMAT)
    message(FATAL_ERROR "polyasm_add_program(${target}): give the output format with FORMAT (c, vshinc, bin, ...)")
  endif()
  if(NOT POLYASM_EXECUTABLE)
    message(FATAL_ERROR "polyasm_add_program(${target}): polyasm was not found on PATH; set POLYASM_EXECUTABLE to its path")
  endif()

  if(arg_OUTPUT_DIR)
    cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE OUTPUT_VARIABLE output_dir)
  else()
    set(output_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  endif()
  file(MAKE_DIRECTORY "${output_dir}")
  _polyasm_extension("${arg_FORMAT}" extension)

  set(common_args -f "${arg_FORMAT}")
  if(arg_TARGET_DIALECT)
    list(APPEND common_args -t "${arg_TARGET_DIALECT}")
  endif()
  foreach(dir IN LISTS arg_INCLUDE_DIRS)
    cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE dir)
    list(APPEND common_args -I "${dir}")
  endforeach()

  # A new polyasm assembles everything again; a bare command name has no file to watch.
  set(tool "")
  if(IS_ABSOLUTE "${POLYASM_EXECUTABLE}")
    set(tool "${POLYASM_EXECUTABLE}")
  endif()

  set(outputs "")
  foreach(source IN LISTS arg_SOURCES)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE source_path)
    cmake_path(GET source_path STEM LAST_ONLY stem)
    set(output "${output_dir}/${stem}.${extension}")
    if(output IN_LIST outputs)
      message(FATAL_ERROR "polyasm_add_program(${target}): two sources would be written to ${output}; give them different names or another target")
    endif()
    list(APPEND outputs "${output}")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${POLYASM_EXECUTABLE}" "${source_path}" -o "${output}" --depfile "${output}.d" ${common_args} ${arg_OPTIONS}
      DEPENDS "${source_path}" ${tool}
      DEPFILE "${output}.d"
      COMMENT "polyasm: assembling ${source}"
      VERBATIM)
  endforeach()

  add_library(${target} INTERFACE ${outputs})
  target_include_directories(${target} INTERFACE "${output_dir}")
endfunction()
