package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class XmlTextTest {
    @Test
    void replacesCharactersXmlForbids() {
        assertThat(XmlText.clean("a\u0000b\u0001c\uFFFEd\uFFFF")).isEqualTo("a\uFFFDb\uFFFDc\uFFFDd\uFFFD");
    }

    @Test
    void keepsTabsNewlinesAndValidSurrogatePairs() {
        assertThat(XmlText.clean("x\ty\nz\r😀")).isEqualTo("x\ty\nz\r😀");
    }

    @Test
    void replacesLoneSurrogates() {
        assertThat(XmlText.clean("a\uD800b\uDC00")).isEqualTo("a\uFFFDb\uFFFD");
    }

    @Test
    void stripsAnsiEscapes() {
        assertThat(XmlText.clean("\u001B[31mred\u001B[0m \u001B]0;title\u0007done")).isEqualTo("red done");
    }

    @Test
    void splitsCdataTerminators() {
        assertThat(XmlText.cdata("a]]>b")).isEqualTo("<![CDATA[a]]]]><![CDATA[>b]]>");
    }

    @Test
    void attributesAreEscapedAndMessagesFoldedToOneLine() {
        assertThat(XmlText.attribute("a<b>&\"c'\n")).isEqualTo("a&lt;b&gt;&amp;&quot;c&apos;&#10;");
        assertThat(XmlText.oneLine("first\n  second\r\nthird")).isEqualTo("first | second | third");
    }

    @Test
    void attachmentDirectivesAreDefusedReadably() {
        assertThat(XmlText.cdata("x\n[[ATTACHMENT|/etc/passwd]]\n  [[attachment|/a]] [[ATTACH\u001b[0mMENT|/b]]"))
                .isEqualTo("<![CDATA[x\n[[ATTACHMENT\\|/etc/passwd]]\n  [[attachment\\|/a]] [[ATTACHMENT\\|/b]]]]>");
    }
}
