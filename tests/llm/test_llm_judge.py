"""The LLM judge of negatives (sgprep/negatives/llm_judge.py) over the openai engine, against a
FAKE OpenAI-compatible endpoint on loopback that answers like a judge would (fake_endpoint.py):
what it drops, what it counts, and what it does when the endpoint gives no usable answer."""

from __future__ import annotations

import json

import pytest
from fake_endpoint import FakeEndpoint, closed_port_url, completion

from sgprep.negatives.llm_judge import SCHEMA, LLMJudgeSettings, conversation, verdict
from sgprep.negatives.stage import NegativesSettings, NegativesStage
from sgprep.parse.rules import RuleParser
from sgprep.schema import Sample


class JudgeEndpoint(FakeEndpoint):
    """Answers {"fluent", "plausible"} for the text of the last user message: false for the
    texts it is told, and a reply that is not JSON for the ``garbled`` ones."""

    def __init__(self, implausible: set[str], disfluent: set[str], garbled: set[str]):
        super().__init__("ok")
        self.implausible, self.disfluent, self.garbled = implausible, disfluent, garbled
        self.judged: list[str] = []

    def answer(self, handler, first: bool) -> None:
        text = handler.body["messages"][-1]["content"]
        with self.lock:
            self.judged.append(text)
        if text in self.garbled:
            handler._send(200, completion("sure! it looks fine"))
            return
        handler._send(
            200,
            completion(
                json.dumps(
                    {
                        "fluent": text not in self.disfluent,
                        "plausible": text not in self.implausible,
                    }
                )
            ),
        )


CAPTIONS = [
    "a man riding a horse on a beach",
    "a woman holding a banana next to a dog",
    "a boy flying a kite in a park",
    "two dogs playing with a red ball on the grass",
]


@pytest.fixture(scope="module")
def graphs():
    parser = RuleParser()
    parser.setup()
    return parser.parse_batch(CAPTIONS)


def run_stage(graphs, **judge) -> tuple[list[Sample], dict[str, int]]:
    # plausibility off: the judge is under test, and it needs many candidates to judge
    settings = NegativesSettings(
        strategies=["swap", "replace", "connect"],
        per_sample=4,
        plausibility=False,
        llm_judge=LLMJudgeSettings(**judge),
    )
    stage = NegativesStage(settings)
    stage.setup()
    samples = [
        Sample(key=f"k{i}", source="test", caption=c, sg=g)
        for i, (c, g) in enumerate(zip(CAPTIONS, graphs))
    ]
    try:
        return stage.run(samples), stage.stats()
    finally:
        stage.teardown()


def test_the_judge_is_off_by_default(graphs):
    assert NegativesSettings().llm_judge.enabled is False
    samples, stats = run_stage(graphs)
    assert not any(k.startswith("llm_judge/") for k in stats)


def test_the_judge_drops_what_it_calls_disfluent_or_implausible(graphs):
    plain, plain_stats = run_stage(graphs)
    before = [n.text for s in plain for n in s.neg.negatives]
    assert len(set(before)) >= 8
    # the stage is seeded: the judged run makes the same candidates, so the verdicts can name them
    implausible, disfluent, garbled = set(before[0:6:2]), set(before[1:6:2]), {before[7]}
    with JudgeEndpoint(implausible, disfluent, garbled) as ep:
        judged, stats = run_stage(graphs, enabled=True, endpoint=ep.url, model="fake-model")
    after = [n.text for s in judged for n in s.neg.negatives]
    # every distinct negative was asked about once, alone, with the worked examples first
    assert sorted(ep.judged) == sorted(set(before))
    body = ep.bodies[0]
    assert body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert body["temperature"] == 0.0 and body["messages"][0]["role"] == "system"
    # the same negatives, less those the judge refused, in the same order
    dropped = implausible | disfluent
    assert after == [t for t in before if t not in dropped]
    assert stats["rejected/llm_disfluent"] == 3 and stats["rejected/llm_implausible"] == 3
    # an answer that is not the schema's JSON keeps the negative, counted, not silently
    assert before[7] in after and stats["llm_judge/unjudged"] == 1
    assert stats["llm_judge/judged"] == len(before) - 1
    # the counters of what was made follow what was kept
    assert stats["negatives"] == len(after) == plain_stats["negatives"] - len(dropped)
    assert sum(v for k, v in stats.items() if k.startswith("kind/")) == len(after)
    assert stats["llm_judge/engine/requests"] == len(set(before))


def test_a_dead_endpoint_keeps_every_negative_and_says_so(graphs):
    plain, _ = run_stage(graphs)
    judged, stats = run_stage(
        graphs, enabled=True, endpoint=closed_port_url(), model="m", max_retries=0, timeout=2
    )
    assert [n.text for s in judged for n in s.neg.negatives] == [
        n.text for s in plain for n in s.neg.negatives
    ]
    assert stats["llm_judge/unjudged"] == stats["negatives"] > 0
    assert stats["llm_judge/engine/failed"] > 0 and "llm_judge/judged" not in stats


def test_settings_and_answers():
    with pytest.raises(ValueError, match="endpoint"):  # refused with the run's settings
        NegativesSettings(llm_judge={"enabled": True})
    with pytest.raises(ValueError):
        LLMJudgeSettings(max_concurrency=0)
    with pytest.raises(ValueError):
        NegativesSettings(llm_judge={"enabled": True, "no_such_setting": 1})
    assert verdict('{"fluent": true, "plausible": false}') == (True, False)
    for bad in (None, "yes", "[]", '{"fluent": "yes", "plausible": true}', '{"fluent": true}'):
        assert verdict(bad) is None
    messages = conversation("a cat on a mat")
    assert messages[-1] == {"role": "user", "content": "a cat on a mat"}
    assert all(json.loads(m["content"]) for m in messages if m["role"] == "assistant")
