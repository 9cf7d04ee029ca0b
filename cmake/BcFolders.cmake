# BcFolders.cmake - the build follows the folders (docs/architecture.md): a part
# (common, agent, coordinator) is one library made of every .c under its folder,
# and the part's root is its one include directory, so every project header is
# included by its path from there: #include "report/expect.h" in the coordinator,
# #include "util/log.h" from common/ wherever it is used. Folder names are unique
# across the parts, so a path names one header. Included by the top
# CMakeLists.txt and by the fuzzers' project (tests/fuzz/project/).

# VAR = every .c under DIR (absolute), re-globbed when files come or go
function(bc_folder_sources var dir)
	get_filename_component(dir ${dir} ABSOLUTE)
	file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${dir}/*.c)
	list(SORT srcs)
	set(${var} ${srcs} PARENT_SCOPE)
endfunction()
