// unused.h — only here so that INCLUDE_DIRECTORIES has a directory to pass as -I.
