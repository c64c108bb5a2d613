"""library-names: names Pillow 10, Python 3.10 and NumPy removed, rewritten by qualified name only."""

import textwrap

import pytest
from PIL import Image

from codemods.rules.library_names import LibraryNamesRule
from compat import library_names
from tests.support.rule_test import RuleTest, apply

# Pillow's old name -> the filter of PIL.Image it stands for
RENAMED = {old: library_names.split(new)[1] for old, new in library_names.RENAMED["PIL.Image"].items()}


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
    after = apply(source, LibraryNamesRule).module.code
    namespace: dict = {}
    exec(compile(after, "after", "exec"), namespace)
    expected = Image.new("L", (8, 8), 200).resize((4, 4), Image.Resampling[RENAMED[old]])
    assert namespace["small"].tobytes() == expected.tobytes()


class TestLibraryNamesRule(RuleTest):
    TRANSFORM = LibraryNamesRule

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
            ("library-names", "info", 2),
            ("library-names", "info", 3),
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

    def test_collections_abc_names_from_every_import_form(self):
        before = """
            import collections
            import collections as c
            from collections import Mapping, OrderedDict
            from collections import Sequence as Seq

            class Config(collections.MutableMapping):
                pass

            x = (isinstance(v, c.Callable), Mapping, Seq, OrderedDict())
        """
        after = """
            import collections
            import collections as c
            from collections import OrderedDict
            import collections.abc
            from collections.abc import Mapping, Sequence as Seq

            class Config(collections.abc.MutableMapping):
                pass

            x = (isinstance(v, c.abc.Callable), Mapping, Seq, OrderedDict())
        """
        self.assertCodemod(before, after)

    def test_numpy_aliases_become_the_builtins_or_numpy_names_they_stood_for(self):
        before = """
            import numpy as np
            from numpy import float as npfloat, long

            mask = np.zeros(3, dtype=np.bool)
            x = (np.float_(1.0), np.NaN, np.int, np.object, npfloat, long, np.float32)
        """
        after = """
            import numpy as np
            from builtins import float as npfloat, int as long

            mask = np.zeros(3, dtype=bool)
            x = (np.float64(1.0), np.nan, int, object, npfloat, long, np.float32)
        """
        self.assertCodemod(before, after)

    def test_a_builtin_the_module_rebinds_is_written_through_builtins(self):
        before = """
            import numpy as np

            bool = None
            mask = np.zeros(3, dtype=np.bool)
        """
        after = """
            import numpy as np
            import builtins

            bool = None
            mask = np.zeros(3, dtype=builtins.bool)
        """
        self.assertCodemod(before, after)

    def test_numpy_1s_copy_false_becomes_asarray_which_copies_only_where_needed_on_both_numpys(self):
        # stable-baselines 2.10.2's replay buffer: NumPy 2 raises where NumPy 1 copied
        before = """
            import numpy as np
            from numpy import array

            actions.append(np.array(action, copy=False))
            x = np.array(obs, dtype=np.float32, copy=False)
            y = np.array(obs, copy=False, subok=True)
            z = array(obs, copy=False)
            kept = (np.array(obs), np.array(obs, copy=True), np.array(obs, copy=flag))
        """
        after = """
            import numpy as np
            from numpy import asarray

            actions.append(np.asarray(action))
            x = np.asarray(obs, dtype=np.float32)
            y = np.asanyarray(obs)
            z = asarray(obs)
            kept = (np.array(obs), np.array(obs, copy=True), np.array(obs, copy=flag))
        """
        self.assertCodemod(before, after)

    def test_copy_false_with_an_argument_asarray_lacks_is_a_warning_naming_numpy_2s_spelling(self):
        for call in ("np.array(obs, copy=False, ndmin=2)", "np.array(object=obs, copy=False)", "np.array(copy=False)"):
            source = f"import numpy as np\nx = {call}\n"
            applied = self.applied(source)
            assert applied.module.code == source
            [entry] = applied.entries
            assert entry.severity == "warning" and "NumPy 2" in entry.message and "copy=None" in entry.manual


@pytest.mark.parametrize("module", sorted(library_names.RENAMED))
def test_every_new_name_is_installed_and_reported_with_the_release_that_removed_the_old_one(module):
    for new in library_names.RENAMED[module].values():
        home, name = library_names.split(new)
        assert hasattr(__import__(home, fromlist=[name]), name), new
    assert module in library_names.REMOVED_IN
