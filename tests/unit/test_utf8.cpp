// UTF-8 checks of the text files sonicsim reads: where a line stops being text.
#include "sim/text/utf8.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

TEST_CASE("well-formed UTF-8 and the first byte that is not text") {
  CHECK(is_valid_utf8("plain, \xC3\xA9t\xC3\xA9, \xE2\x82\xAC"));
  CHECK(first_invalid_utf8("ab\xFF") == std::optional<std::size_t>(2));
  CHECK(first_invalid_utf8("\xC0\xAF") == std::optional<std::size_t>(0));     // overlong '/'
  CHECK(first_invalid_utf8("\xED\xA0\x80") == std::optional<std::size_t>(0)); // a surrogate
  CHECK(first_non_text_byte("a,b\t c") == std::nullopt);
  CHECK(first_non_text_byte(std::string("12") + '\0') == std::optional<std::size_t>(2));
  CHECK(first_non_text_byte("a\x1B[31m") == std::optional<std::size_t>(1));
}
