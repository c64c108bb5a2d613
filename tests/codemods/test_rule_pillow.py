"""pillow-constants: Pillow's resampling aliases removed in Pillow 10, rewritten by qualified name only."""

import textwrap

import pytest
from PIL import Image

from codemods.rules.pillow import RENAMED, PillowRule
from tests.support.rule_test import RuleTest, apply


def test_the_new_names_are_the_installed_pillows_filters_and_the_old_ones_are_gone():
    """The rule is needed (the installed Pillow, pulled in by tensorboard, lacks every old name) and
    each target is the resampling filter of that name there, compared by value."""
    assert [old for old in RENAMED if hasattr(Image, old)] == []
    for new in RENAMED.values():
        assert getattr(Image, new) == Image.Resampling[new], new


RESIZE = """
    from PIL import Image
    small = Image.new("L", (8, 8), 200).resize((4, 4), Image.{old})
"""


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_migrated_code_runs_on_the_installed_pillow(old):
    source = textwrap.dedent(RESIZE.format(old=old))
    with pytest.raises(AttributeError, match=old):
        exec(compile(source, "before", "exec"), {})
    after = apply(source, PillowRule).module.code
    namespace: dict = {}
    exec(compile(after, "after", "exec"), namespace)
    expected = Image.new("L", (8, 8), 200).resize((4, 4), Image.Resampling[RENAMED[old]])
    assert namespace["small"].tobytes() == expected.tobytes()


class TestPillowRule(RuleTest):
    TRANSFORM = PillowRule

    def test_every_import_form(self):
        before = """
            import PIL.Image
            import PIL.Image as PILImage
            from PIL import Image
            from PIL import Image as Img
            from PIL.Image import ANTIALIAS, NEAREST
            from PIL.Image import CUBIC as cubic, LINEAR

            a = Image.ANTIALIAS
            b = PIL.Image.LINEAR
            c = PILImage.CUBIC
            d = img.resize((2, 2), Img.ANTIALIAS)
            e = (ANTIALIAS, cubic, LINEAR, NEAREST, Image.NEAREST)
        """
        after = """
            import PIL.Image
            import PIL.Image as PILImage
            from PIL import Image
            from PIL import Image as Img
            from PIL.Image import LANCZOS as ANTIALIAS, NEAREST
            from PIL.Image import BICUBIC as cubic, BILINEAR as LINEAR

            a = Image.LANCZOS
            b = PIL.Image.BILINEAR
            c = PILImage.BICUBIC
            d = img.resize((2, 2), Img.LANCZOS)
            e = (ANTIALIAS, cubic, LINEAR, NEAREST, Image.NEAREST)
        """
        self.assertCodemod(before, after)

    def test_each_rewrite_has_an_info_entry(self):
        entries = self.applied("""
            from PIL import Image
            from PIL.Image import LINEAR
            x = Image.ANTIALIAS
        """).entries
        assert [(e.rule, e.severity, e.line) for e in entries] == [
            ("pillow-constants", "info", 2),
            ("pillow-constants", "info", 3),
        ]
        assert "PIL.Image.ANTIALIAS -> PIL.Image.LANCZOS" in entries[1].message

    def test_must_not_fire_on_own_names_strings_comments_or_an_unrelated_image(self):
        source = """
            import Image  # an unrelated module named Image: Image.ANTIALIAS stays
            from PIL import ImageFilter

            ANTIALIAS = 1
            x = Image.ANTIALIAS
            y = ImageFilter.LINEAR
            s = "Image.ANTIALIAS"
            z = (ANTIALIAS, LINEAR, CUBIC)


            class Resizer:
                CUBIC = 3

                def run(self):
                    return self.CUBIC
        """
        self.assertCodemod(source, source)
        assert self.applied(source).entries == []

    def test_a_pil_name_shadowed_by_a_local_is_left_and_warned_about(self):
        """`Image` bound to Pillow and, in a def, to a parameter: neither use is rewritten, and each
        is a warning (one of them fails on Pillow 10, so it must not be silent)."""
        source = """
            from PIL import Image

            def resize(img, Image):
                return img.resize((2, 2), Image.ANTIALIAS)

            MODE = Image.CUBIC
        """
        self.assertCodemod(source, source)
        entries = self.applied(source).entries
        assert [(e.severity, e.line) for e in entries] == [("warning", 4), ("warning", 6)]
        assert all("Image.LANCZOS" in e.manual or "Image.BICUBIC" in e.manual for e in entries)
