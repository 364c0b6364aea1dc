"""Object and pair boxes (METHOD.md section 2): the ``detect`` stage.

``stage`` (DetectStage) drives ``decode`` (threaded decoding with named failures) and a
backend from ``base.DETECTORS`` (``onnx_backend``, ``torch_backend``); ``pairs`` makes the
relation boxes. Nothing heavy is imported here: torch, ultralytics and onnxruntime load in
the backend that needs them.
"""
