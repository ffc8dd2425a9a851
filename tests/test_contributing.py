"""The contributor's tools: `new` scaffolds a case, `prove` shows which mutants catch it."""

import re

from harness.cli import main
from harness.validation import validate_corpus


def test_new_scaffolds_a_case_in_the_topic_folder(capsys, corpus_builder) -> None:
    code = main(["new", "nightpack-ambusher-03", "--cases", str(corpus_builder.root)])
    path = corpus_builder.root / "nightpack-ambusher" / "nightpack-ambusher-03.yaml"
    assert code == 0 and path.exists()
    text = path.read_text()
    assert text.startswith("# yaml-language-server: $schema=../../schema/case.schema.json")
    assert "A creature that’s both a Wolf and a Werewolf gets only +1/+1" in text
    assert "id: nightpack-ambusher/nightpack-ambusher-03" in text
    assert '{card: "Nightpack Ambusher", label: nightpack-ambusher}' in text
    problems = [str(p) for p in validate_corpus(corpus_builder.corpus()).problems]
    assert problems == ["cases/nightpack-ambusher/nightpack-ambusher-03.yaml:13: $.rules: [] should be non-empty "
                        "(expected: Comprehensive Rules numbers the case exercises, e.g. '302.6', '605.1a'.)"]


def test_new_refuses_to_overwrite(capsys, corpus_builder) -> None:
    assert main(["new", "general-07", "--cases", str(corpus_builder.root)]) == 0
    assert main(["new", "general-07", "--cases", str(corpus_builder.root)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_new_suggests_ruling_ids(capsys, corpus_builder) -> None:
    assert main(["new", "general-7", "--cases", str(corpus_builder.root)]) == 2
    assert "did you mean general-07" in capsys.readouterr().err


def test_prove_lists_the_mutants_a_case_catches(capsys) -> None:
    code = main(["prove", "general/tap-ability-summoning-sick"])
    out = capsys.readouterr().out
    assert code == 0
    assert "mutant:summoning-sickness-ignored" in out
    # Other mutants may catch it by side effect; one breaks the rule it cites (302.6).
    assert re.search(r"caught by the null engine and by \d+ mutant\(s\), 1 breaking a rule it cites: "
                     r"summoning-sickness-ignored\n", out), out


def test_prove_unknown_case(capsys) -> None:
    assert main(["prove", "general/tap-ability-sumoning-sick"]) == 2
    assert "did you mean general/tap-ability-summoning-sick" in capsys.readouterr().err


def test_the_worked_example_in_contributing_works_when_followed(capsys, full_corpus_builder) -> None:
    corpus_builder = full_corpus_builder
    import re

    from tests.conftest import REPO

    doc = (REPO / "CONTRIBUTING.md").read_text()
    command = re.search(r"```sh\n(\.venv/bin/mtg-conformance new nightpack-ambusher-03 [^\n]+)\n```", doc).group(1)
    body = re.search(r"Replace everything after the comment block.*?```yaml\n(.*?)```", doc, re.S).group(1)
    assert main(command.split()[1:] + ["--cases", str(corpus_builder.root)]) == 0
    path = corpus_builder.root / "nightpack-ambusher" / "changeling-example.yaml"
    scaffold = path.read_text()
    path.write_text(scaffold[:scaffold.index("id: ")] + body)
    assert main(["validate", "--cases", str(corpus_builder.root)]) == 0
    assert main(["run", "-k", "changeling-example", "--cases", str(corpus_builder.root)]) == 0
    assert main(["prove", "nightpack-ambusher/changeling-example", "--cases", str(corpus_builder.root)]) == 0
    assert "anthem-counts-each-matching-type" in capsys.readouterr().out
