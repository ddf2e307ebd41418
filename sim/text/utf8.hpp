// UTF-8 as the text files sonicsim reads and writes hold it. Pure code.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace sonicsim {

// The byte offset where `text` stops being well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF); none when it is well-formed.
std::optional<std::size_t> first_invalid_utf8(const std::string& text);
inline bool is_valid_utf8(const std::string& text) {
  return !first_invalid_utf8(text);
}

// The first byte that cannot be in a line of text: a control character other than a tab, or malformed UTF-8.
std::optional<std::size_t> first_non_text_byte(const std::string& text);

} // namespace sonicsim
