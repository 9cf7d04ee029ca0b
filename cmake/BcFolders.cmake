# BcFolders.cmake - the build follows the folders (docs/architecture.md): a part
# (common, agent, coordinator) is one library made of every .c under its folder,
# and each folder of the part that holds a header is an include directory, so
# sources keep writing #include "bc_x.h" wherever bc_x.h lives. The part's own
# root is an include directory too: a file added there (by a branch older than
# the folders) builds until it is moved into its folder. Included by the top
# CMakeLists.txt and by the fuzzers' project (tests/fuzz/project/).

# VAR = every .c under DIR (absolute), re-globbed when files come or go
function(bc_folder_sources var dir)
	get_filename_component(dir ${dir} ABSOLUTE)
	file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${dir}/*.c)
	list(SORT srcs)
	set(${var} ${srcs} PARENT_SCOPE)
endfunction()

# VAR = DIR and every folder under it that holds a header (absolute)
function(bc_folder_includes var dir)
	get_filename_component(dir ${dir} ABSOLUTE)
	file(GLOB_RECURSE hdrs CONFIGURE_DEPENDS ${dir}/*.h)
	set(dirs ${dir})
	foreach(h ${hdrs})
		get_filename_component(d ${h} DIRECTORY)
		list(APPEND dirs ${d})
	endforeach()
	list(REMOVE_DUPLICATES dirs)
	list(SORT dirs)
	set(${var} ${dirs} PARENT_SCOPE)
endfunction()
