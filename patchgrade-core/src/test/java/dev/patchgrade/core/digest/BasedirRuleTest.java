package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BasedirRuleTest {
    private final Normalizer normalizer = new Normalizer(List.of(NormalizeRule.basedir(Path.of("/work/lua"))));

    @Test
    void replacesTheProjectDirectoryWhereverItStands() {
        assertThat(normalizer.apply("lua: cannot open /work/lua/testes/x.lua (No such file)\n"))
                .isEqualTo("lua: cannot open ${basedir}/testes/x.lua (No such file)\n");
        assertThat(normalizer.apply("cwd=/work/lua\n")).isEqualTo("cwd=${basedir}\n");
        assertThat(normalizer.apply("'/work/lua': ok")).isEqualTo("'${basedir}': ok");
    }

    @Test
    void leavesLongerNamesAlone() {
        assertThat(normalizer.apply("/work/luajit/src and /work/lua-5.4")).isEqualTo("/work/luajit/src and /work/lua-5.4");
    }

    @Test
    void isRecordedAndComparedByItsName() {
        NormalizeRule here = NormalizeRule.basedir(Path.of("/work/lua"));
        NormalizeRule elsewhere = NormalizeRule.basedir(Path.of("/home/ci/lua"));
        assertThat(here).isEqualTo(elsewhere).isEqualTo(NormalizeRule.named("basedir")).hasSameHashCodeAs(NormalizeRule.named("basedir"));
        assertThat(here).isNotEqualTo(new NormalizeRule(here.pattern(), here.replacement()));
        assertThat(here.describe()).isEqualTo("basedir");
    }
}
