"""Reading a game from its e-mails (``minister mail``): a mailbox becomes a draft replay file.

The pipeline, one module per step, all pure (no store, no network):

1. :mod:`.mailbox` reads an ``.mbox`` file, a Maildir or a folder of ``.eml`` files into raw
   messages, listing what it cannot read;
2. :mod:`.decode` decodes each with the standard library's ``email`` package
   (``policy.default``): headers, charsets, multipart, HTML-only bodies (:mod:`.html_text`),
   messages attached to messages;
3. :mod:`.unwrap` cuts each body into segments: the sender's own text, quoted replies and
   inline forwards, each with the sender and date it names;
4. the recognisers in :mod:`.recognise` turn segments into records (IAAPA notation) and dice
   (TripleA's MARTI, the newer TripleA dice server, a generic ``dice:`` line);
5. :mod:`.matching` gives each dice mail its battle, :mod:`.draft` writes the
   ``minister-replay/1`` text with every record's source as a comment.

:func:`.read.read_mail` runs the steps; the use case (:mod:`application.usecases.mail`) checks
the draft with the replay reader and imports it. docs/mail.md describes the formats read.
"""
