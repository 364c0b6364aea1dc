"""Sub-graph positives."""

from neg_helpers import graph


def test_subgraph_relation_span_indexes_the_extracted_text():
    from sgprep.negatives.subgraph import subgraphs
    from sgprep.schema import relation_span

    caption = "A red cat sitting on a mat near a blue door"
    g = graph(
        caption,
        [("red cat", "cat", ["red"]), ("mat", "mat", []), ("blue door", "door", ["blue"])],
        [(0, "sit on", 1)],
    )
    g.relations[0] = g.relations[0].model_copy(update={"span": relation_span(g.entities, 0, 1)})
    [sub] = [s for s in subgraphs(caption, g) if s.graph.relations]
    assert (sub.text, sub.realisation) == ("a red cat sitting on a mat", "span_extract")
    assert sub.text[slice(*sub.graph.relations[0].span)] == "red cat sitting on a mat"
