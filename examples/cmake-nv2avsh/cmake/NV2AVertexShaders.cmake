# NV2AVertexShaders.cmake: nv2a vertex shaders turned into C includes by the nv2avsh command,
# the way Xbox homebrew built on nxdk runs it: `nv2avsh <absolute source> <output>.vshinc`.
# Any nv2avsh on PATH does: the Python tool, or polyasm under that name (a link named nv2avsh).
#
#   nv2a_vertex_shaders(<target> <source>...)
#
# makes <target>, a custom target that writes <binary dir>/<target>/<stem>.vshinc for each
# source; add it as a dependency of the program that includes them and that folder to its
# include folders (the variable <target>_INCLUDE_DIR names it).

include_guard(GLOBAL)

find_program(NV2AVSH nv2avsh REQUIRED DOC "The nv2avsh vertex shader assembler")

function(nv2a_vertex_shaders target)
  set(output_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  file(MAKE_DIRECTORY "${output_dir}")
  set(outputs "")
  foreach(source IN LISTS ARGN)
    get_filename_component(source_path "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${source}" NAME_WLE)
    set(output "${output_dir}/${stem}.vshinc")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${NV2AVSH}" "${source_path}" "${output}"
      DEPENDS "${source_path}"
      COMMENT "nv2avsh: ${source}"
      VERBATIM)
    list(APPEND outputs "${output}")
  endforeach()
  add_custom_target(${target} DEPENDS ${outputs})
  set(${target}_INCLUDE_DIR "${output_dir}" PARENT_SCOPE)
endfunction()
