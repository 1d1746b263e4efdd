#include <gtest/gtest.h>

#include "reports/text.hpp"
#include "runner/result/utf8.hpp"

using namespace a2a::reports;

TEST(DisplayBytes, ShowsControlsAndInvalidBytesAndKeepsValidUtf8) {
  std::string raw("a\x00\x1b[1m\xff\xc0\xaf \xc3\xa9\\", 13);
  EXPECT_EQ(display_bytes(raw), "a\\x00\\x1b[1m\\xff\\xc0\\xaf \xc3\xa9\\\\");
  EXPECT_EQ(display_bytes("CL: 2\r\n\r\n{}"), "CL: 2\\r\\n\n\\r\\n\n{}");
  EXPECT_EQ(display_bytes("a\tb\nc", Display::kText), "a\tb\nc");
  EXPECT_EQ(display_bytes("\xe2\x80\xae" "x"), "\\xe2\\x80\\xaex");  // RLO
  EXPECT_EQ(display_bytes("\xc2\x85"), "\\xc2\\x85");                // C1 NEL
  EXPECT_EQ(display_bytes("\xef\xbf\xbe"), "\\xef\\xbf\\xbe");       // U+FFFE
}

TEST(DisplayBytes, PrefixNamesTheRestAndNeverSplitsACharacter) {
  EXPECT_EQ(display_prefix("abcdef", 3, Display::kText), "abc ... (3 more bytes)");
  EXPECT_EQ(display_prefix("ab\xc3\xa9z", 3, Display::kText), "ab ... (3 more bytes)");
  EXPECT_EQ(display_prefix("abc", 3, Display::kText), "abc");
}

TEST(SanitizeText, ReplacesWhatXmlForbidsWithReplacementCharacter) {
  std::string raw("ok\t\n\r\x01\x7f\xff\xef\xbf\xbf", 11);
  EXPECT_EQ(sanitize_text(raw), "ok\t\n\r\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_TRUE(a2a::result::valid_utf8(sanitize_text("\xed\xa0\x80")));
}

TEST(XmlEscape, EscapesMarkupAndWhitespaceInAttributes) {
  EXPECT_EQ(xml_escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(xml_escape("a\tb\nc\rd", true), "a&#9;b&#10;c&#13;d");
  EXPECT_EQ(xml_escape("a\nb\rc", false), "a\nb&#13;c");
  EXPECT_EQ(html_escape("<script>'x'</script>"), "&lt;script&gt;&#39;x&#39;&lt;/script&gt;");
}

TEST(OneLine, FlattensNewlinesAndTruncates) {
  EXPECT_EQ(one_line("a\nb\tc\x1b"), "a\\nb\\tc\\x1b");
  EXPECT_EQ(one_line("abcdef", 2), "ab ... (4 more bytes)");
}

TEST(HumanDuration, PicksAReadableUnit) {
  EXPECT_EQ(human_duration(3), "3 ms");
  EXPECT_EQ(human_duration(1250), "1.25 s");
  EXPECT_EQ(human_duration(125000), "2 min 5 s");
}
