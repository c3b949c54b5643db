// (being written: the law lands in the next commit)
#include <gtest/gtest.h>
