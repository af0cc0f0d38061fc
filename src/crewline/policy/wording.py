"""How the gate reads a question: normalised text, plain tokens, and the member's wording.

Everything here is pure text work for ``policy/routine.py``. Two forms of a question are
read: the *code* form (lower-cased, accents stripped, punctuation kept) for shell, SQL and
money spellings, and the *words* form (plain ``[a-z0-9]`` tokens joined by single spaces)
for word families, stems and phrases — as written, and again with obfuscation undone. A
member's own wording about the question ("this is routine", "ignore your rules") is found
here too: assurances are dropped as noise, and instructions addressed to the concierge make
the question one the gate will not place.
"""

from __future__ import annotations

import html
import re
import unicodedata

__all__ = [
    "answering",
    "assurances_removed",
    "broken_word",
    "claimed_leave",
    "code_form",
    "deobfuscated_form",
    "has_unreadable_letters",
    "injection",
    "question_count",
    "row_orders",
    "tokens",
    "word_set",
    "words_form",
]

_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]"
)
_DASHES = re.compile("[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00b4": "'"})
_SPACES = re.compile(r"\s+")

# Leetspeak inside a word ("del3te", "pa55word"): undone only where a run mixes letters with
# these characters, so plain numbers ("port 4321") stay numbers.
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_MIXED_RUN = re.compile(r"[a-z0-9@$]*[a-z][a-z0-9@$]*")
_LEET_NEXT_TO_LETTER = re.compile(r"[a-z][013457@$]|[013457@$][a-z]")
_INNER_SEPARATOR = re.compile(r"(?<=[a-z0-9])[-_.'*|\\/](?=[a-z0-9])")
# Letters spelled out one by one ("d e l e t e", "d.e.l.e.t.e", "d-e-l-e-t-e").
_SPELLED = re.compile(r"\b[a-z](?:[ .\-_*][a-z]\b){3,}")
_TOKEN = re.compile(r"[a-z0-9]+")


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``: the gate's small vocabularies."""
    return frozenset(text.split())


def _step_end(text: str, k: int) -> str:
    """Character ``k`` of ``text``, a pictograph as the comma that ends a step, unless it is
    a sign of the letter-like blocks (before the arrows, U+2190: "°", "℃", "№") right after a
    number (a space between at most): there it is the number's unit, inside its clause."""
    c = text[k]
    if unicodedata.category(c) != "So":
        return c
    before = text[max(0, k - 2) : k].rstrip(" ")
    return c if before[-1:].isdigit() and ord(c) < _ARROWS else ", "


_ARROWS = 0x2190  # from here on the symbol blocks are arrows, dingbats and pictographs


def code_form(text: str) -> str:
    """NFKC, lower case, accents and invisible characters dropped, dashes and quotes ASCII."""
    if text.isascii():  # already NFKC, with no invisible characters, dashes or accents
        return _SPACES.sub(" ", text.lower()).strip()
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    # a pictograph between words ends a step ("format code ✅ email the list ✅"): a comma;
    # a symbol after a number is its unit ("to 850°C on the live kiln"), no step's end
    text = "".join(_step_end(text, k) for k in range(len(text)))
    text = _DASHES.sub("-", text).translate(_QUOTES)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _SPACES.sub(" ", text.lower()).strip()


def _unleet(match: re.Match[str]) -> str:
    run = match.group(0)
    if run.isalpha() or not any(c.isalpha() for c in run) or (run[0].isdigit() and run.isalnum()):
        return run
    return run.translate(_LEET)


# A capital that starts no sentence, line, clause or quotation: the word is a name as written
# ("the window in Argentina", "on Samsung Tizen"), whatever a dictionary says of it.
_NAME_CAPITAL = re.compile(r"(?<![\s.!?:;(\[\-\u2013\u2014\"'`*>#])[ \t]+([A-Z]\w*)")


def capitalised_names(text: str) -> frozenset[str]:
    """The words the writer capitalised where no sentence, line, clause or quotation starts
    ("Argentina", "Tizen", "HLS"), in lower case: the names a question gives its thing by.
    "I" is no name."""
    return frozenset(m.group(1).lower() for m in _NAME_CAPITAL.finditer(text) if m.group(1) != "I")


def words_form(code: str) -> str:
    """The plain tokens of a code-form text, one space apart."""
    return " ".join(_TOKEN.findall(code))


def deobfuscated_form(code: str) -> str:
    """The words form with letters spelled out one by one joined, separators inside a word
    dropped ("de-lete", "re_move") and leetspeak undone."""
    joined = _SPELLED.sub(lambda m: re.sub(r"[ .\-_*]", "", m.group(0)), code)
    joined = _INNER_SEPARATOR.sub("", joined)
    if _LEET_NEXT_TO_LETTER.search(joined):
        joined = _MIXED_RUN.sub(_unleet, joined)
    return words_form(joined)


def tokens(code: str) -> list[str]:
    """The plain ``[a-z0-9]`` tokens of a code-form text, in order."""
    return _TOKEN.findall(code)


def has_unreadable_letters(code: str) -> bool:
    """Letters outside ASCII after normalisation: homoglyphs or a language the gate cannot read."""
    return not code.isascii() and any(c.isalpha() and not c.isascii() for c in code)


# Markup inside a word, letters on both sides ("wi<!-- -->pe", "<b>Del</b>ete", "**Dr**op",
# "`wi``pe`"), and a hyphen that ends a line inside one ("tr-\nuncate").
_MARKUP_IN_WORD = re.compile(
    r"(?<=[^\W\d_])(?:<!--.*?-->|</?[a-z][\w-]*(?:\s[^<>]*)?/?>|\*\*|~~|`+"
    r"|-[ \t]*\r?\n[ \t]*)+(?=[^\W\d_])",
    re.IGNORECASE | re.DOTALL,
)
# A character written as a code: percent, HTML or backslash escapes, and named entities.
_ESCAPE = re.compile(
    r"%[0-9a-f]{2}|\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|&#(?:x[0-9a-f]{1,6}|[0-9]{1,7});?"
    r"|&[a-z][a-z0-9]{1,30};",
    re.IGNORECASE,
)


def _escaped(code: str) -> str:
    """The character an escape code stands for."""
    if code[0] == "%" or code[:2] == "\\x":
        return chr(int(code[-2:], 16))
    if code[:2] == "\\u":
        return chr(int(code[2:], 16))
    return html.unescape(code if code.endswith(";") else code + ";")


def broken_word(text: str) -> str | None:
    """The word, as written, that markup or an escape code breaks so that it is no plain
    word — markup between two of its letters, a line ending in a hyphen inside it, or a
    letter, digit or invisible character written as a code ("%44elete", "del&#101;te",
    "tr&shy;uncate", "d\\x65lete") — or None. Plain text never needs these: a URL escapes
    no letter or digit, and markup around a whole word ("**drop**") leaves the word whole."""
    found = _MARKUP_IN_WORD.search(text)
    if found is None:
        found = next(
            (
                m
                for m in _ESCAPE.finditer(text)
                if len(c := _escaped(m.group(0))) == 1
                and ((c.isascii() and c.isalnum()) or unicodedata.category(c) == "Cf")
            ),
            None,
        )
    if found is None:
        return None
    head = re.split(r"\s", text[max(0, found.start() - 12) : found.start()])[-1]
    tail = re.split(r"\s", text[found.end() : found.end() + 12])[0]
    return _SPACES.sub(" ", f"{head}{found.group(0)}{tail}")


def question_count(code: str) -> int:
    """How many separate questions the text asks ("yes or no?" and "ok?" tails not counted)."""
    parts = [p.strip() for p in code.split("?")[:-1]]
    return sum(1 for p in parts if p and not _TRIVIAL_QUESTION.match(p))


_TRIVIAL_QUESTION = re.compile(
    r"^(?:[,.;:\-]\s*)?(?:yes or no|y/n|\(y/n\)|ok|okay|right|yes/no|correct)$"
)


# A member saying the question is harmless is not evidence that it is: these phrases are
# removed before the routine kinds are matched, so they can neither help nor hurt.
_ASSURANCE = re.compile(
    r"\b(?:"
    r"(?:this|it|that)(?: is| s| was)(?: totally| completely| perfectly| entirely| absolutely"
    r"| just| fully| 100| quite| very)*"
    r" (?:routine|safe|harmless|fine|reversible|low risk|risk free|riskless|innocuous|benign"
    r"|trivial|standard|ok|okay|approved|pre approved|allowed)"
    r"|no risk(?: at all)?|zero risk|risk free|nothing can go wrong|nothing will break"
    r"|no harm(?: done)?|don t worry|dont worry|trust me|no need to (?:ask|check|escalate)"
    r"|(?:totally|completely|perfectly) (?:safe|harmless|fine)|all safe|safe and routine"
    r"|routine and safe|safe operation|standard procedure|as usual|nothing risky"
    r")\b"
)


def assurances_removed(words: str) -> str:
    """The words form with the member's assurances about its own question taken out."""
    return _SPACES.sub(" ", _ASSURANCE.sub(" ", words)).strip()


# Instructions addressed to the concierge or the gate itself, or claims of the human's
# authority: never authorisation, and a question carrying them is not one the gate places.
_INJECTION = re.compile(
    r"\b(?:"
    r"(?:ignore|disregard|forget|override|bypass|skip|suspend|circumvent) (?:all |any |the |your "
    r"|previous |prior |earlier |above |these |those |safety |my )*(?:rules?|instructions?|policy"
    r"|policies|guidelines?|gate|checks?|restrictions?|guardrails?|prompt|system|constraints?"
    r"|filters?|safeguards?|limits?)"
    r"|(?:answer|reply|respond|say|output|return|print|write|type)(?: with| only| just)*"
    r" (?:approve|approved|yes|allow|allowed|ok|okay|granted|confirmed?|go ahead)"
    r"|just (?:say|answer|reply) (?:yes|ok|approve)"
    r"|you (?:are|re) (?:now |hereby )?(?:allowed|authori[sz]ed|permitted|cleared|free|instructed)"
    r"|you (?:have|ve) (?:my |the owner s |the human s |full )?"
    r"(?:permission|approval|authori[sz]ation)"
    r"|(?:the )?(?:owner|human|user|boss|admin|operator|manager|lead)(?: has| s)? (?:already )?"
    r"(?:approved|authori[sz]ed|allowed|permitted|agreed|signed off|ok d|said (?:yes|ok|it s fine))"
    r"|(?:pre|auto) ?approved?|auto approve|standing (?:approval|permission)"
    r"|system prompt|developer mode|jailbreak|new instructions|act as|pretend (?:to be|you)"
    r"|you must (?:answer|approve|reply|say)|do not escalate|don t escalate|dont escalate"
    r"|without (?:asking|escalating|checking)(?: the (?:human|owner|user))?"
    r"|as (?:the|your) (?:owner|admin|operator|system)"
    r"|(?:dear|hey|hi|note to|attention|to) (?:the )?concierge|concierge (?:please|answer|approve"
    r"|reply|say|respond|you)|(?:the )?concierge (?:may|can|should|must|is allowed|is authori[sz]ed"
    r"|has permission)|auto ?answer\w*|answer (?:it|this) (?:yourself|automatically|for me)"
    r"|(?:don t|do not|dont|no need to) (?:ask|bother|wake|ping) (?:the |my )?"
    r"(?:human|owner|user|boss)"
    r")\b"
)
_MARKUP_INJECTION = re.compile(
    r"<\|[a-z_]+\|>|\[/?(?:system|inst|admin|assistant|user)\]"
    r"|<\s*/?\s*(?:system|instructions?|admin|assistant|developer|prompt)\s*>"
    r"|#{2,}\s*(?:system|instruction)|<!--[^>]*(?:concierge|approve|answer|yes)"
    r"|(?:^|[\n.?!]\s*)(?:system|assistant|developer|admin|ai|bot|concierge|approver|reviewer"
    r"|gate)\s*(?:message|prompt|note|override)?\s*:"
    r"|```\s*(?:system|instructions?)"
)
# Who may give the word a question cannot claim to have.
_HOLDER = (
    r"(?:the |my |our |your )?(?:owner|human|boss|admin|operator|manager|management|lead"
    r"|team lead|tech lead|cto|ceo|supervisor|principal|maintainer|stakeholder|product owner)"
)
# Claims of the human's word or of an approval the question cannot show, and orders to
# answer a given way, in more words than the list above (a second net, same verdict).
_AUTHORITY = re.compile(
    r"\b(?:authori[sz]ed|approved|cleared|signed off|sanctioned|green[- ]?lit|greenlighted|ok ?d"
    r"|okayed|blessed|allowed) by (?:the |my |our |your )?(?:owner|human|user|boss|admin|operator"
    r"|manager|management|lead|cto|ceo|team|security|legal|supervisor|principal)"
    r"|\b(?:already|pre)[- ]?(?:approved|authori[sz]ed|cleared|confirmed|agreed|signed off)"
    r"|\b(?:has|have) (?:already )?been (?:approved|authori[sz]ed|signed off|cleared)"
    r"|\b(?:policy|rules?|guidelines?) (?:allows?|permits?|says? (?:yes|it s fine|to approve))"
    r"|\b(?:override|bypass|jailbreak|developer mode|sudo mode|god mode|admin mode|dan mode)\b"
    r"|\b(?:reply|respond|answer|say|output|type|return|print|write|confirm)(?: with| only| just)*"
    r" (?:yes|y|ok|okay|approve|approved|confirmed|allow|allowed|go|proceed|true|accept|accepted"
    r"|granted|lgtm|ship it)\b"
    r"|\bas if (?:the |my )?(?:human|owner|user|boss) (?:said|approved|agreed)"
    r"|\b(?:you|the concierge|the assistant|the bot|the ai) (?:should|must|will|can|may) (?:just )?"
    r"(?:approve|answer|reply|say|confirm|accept|allow)"
    r"|\bif you are (?:an? )?(?:ai|bot|assistant|language model|llm|concierge)"
    r"|\b(?:auto|automatic(?:ally)?)[- ]?(?:approv\w*|answer\w*|accept\w*|confirm\w*)"
    r"|\bapproval (?:code|token|id)\b|\bauthori[sz]ation (?:code|token)\b"
    r"|\b(?:ignore|disregard|forget) (?:the |my |your )?(?:human|owner|user|boss)"
    r"|\b(?:you|we) (?:already )?(?:approved|agreed to|signed off on|ok d|okayed) (?:it|this|that)"
    r"|\b(?:i am|i m|this is|sent by|from|on behalf of|speaking for) (?:the |your )?(?:owner|human"
    r"|admin|administrator|boss|operator)\b"
    r"|\bskip (?:asking|the human|the owner|escalat\w*|approval|review|confirmation)\b"
    r"|\bno (?:human |manual )?(?:review|approval|sign off|confirmation) (?:is )?(?:needed|required"
    r"|necessary)\b|\bmark (?:it|this|that) (?:as )?(?:approved|done|accepted)\b"
    r"|\bapproved\s*(?:=|is)\s*true\b|\bwithout (?:waking|bothering|pinging|involving) (?:the )?"
    r"(?:human|owner|user|boss)"
    # the human's word claimed in other words: "per the owner's OK", "as agreed with the
    # lead", "you have the authority to answer"
    rf"|\b{_HOLDER} s? ?(?:ok|okay|go ahead|blessing|approval|sign off|permission|green light"
    r"|consent|say so|nod|thumbs up)\b"
    rf"|\b(?:agreed|approved|confirmed|cleared|discussed|settled|decided|signed off|okayed)"
    rf" (?:with|by) {_HOLDER}\b"
    r"|\byou (?:have|ve|got|hold|are given) (?:the |full |my |our )?(?:authority|clearance|mandate"
    r"|go ahead|green light|blessing|sign off|say so)\b"
    rf"|\b(?:{_HOLDER}|the human|the user) (?:said|says|told (?:me|us)|gave|has given|signalled)"
    r"(?: (?:me|us))?(?: to)? (?:go|yes|ok|okay|go ahead|proceed|continue|fine|the go ahead)\b"
    r"|\bapproval (?:is )?(?:granted|given|obtained|received|confirmed)\b"
)


def injection(code: str) -> str | None:
    """The phrase addressed to the concierge itself, if the code-form text carries one (also
    spelled with leetspeak or letter by letter)."""
    words = words_form(code)
    found = (
        _INJECTION.search(words)
        or _INJECTION.search(deobfuscated_form(code))
        or _MARKUP_INJECTION.search(code)
        or _authority(words)
        or _authority(deobfuscated_form(code))
    )
    return found.group(0) if found else answering(code)


# A confirm that names the step to go on with ("please confirm: proceed with the export",
# "confirm go ahead with the layout") asks the go-ahead; "confirm proceed." alone, or "confirm
# yes", dictates the answer.
_CONFIRM_THE_STEP = re.compile(r"confirm (?:go|proceed)$")
_STEP_NAMED_AFTER = re.compile(r"\s+(?:ahead\s+)?(?:with|to|on|and)\s+[a-z]")
# Someone's leave needed, awaited or asked for ("deploys need owner sign-off", "refunds require
# the manager's OK", "waiting for the lead's approval") is spoken of, not claimed.
_NEEDED = re.compile(
    r"\b(?:need|needs|needed|needing|require|requires|required|requiring|await|awaits"
    r"|awaiting|pending|want|wants|get|gets|getting|obtain|seek|seeking|request|requesting"
    r"|(?:ask|asks|asking|wait|waits|waiting|waited) for)(?:\s+(?:an?|the|some|explicit"
    r"|written|formal|prior))*\s*$"
)


def _spoken_of(words: str, m: re.Match[str]) -> bool:
    """Is the claim-like phrase a step's go-ahead asked for or a leave said to be needed,
    rather than a claim or an order to whoever answers?"""
    if _CONFIRM_THE_STEP.fullmatch(m.group(0)):
        return bool(_STEP_NAMED_AFTER.match(words, m.end()))
    holder = re.match(_HOLDER, m.group(0))
    return bool(holder and holder.group(0)) and bool(_NEEDED.search(words, 0, m.start()))


def _authority(words: str) -> re.Match[str] | None:
    """The first claim of authority or order to answer a given way in the words form, leaving
    out a named step's go-ahead and leave said to be needed."""
    return next((m for m in _AUTHORITY.finditer(words) if not _spoken_of(words, m)), None)


# ---------------------------------------------------------------- the answering spoken of

# The text read for the two nets below: the code form with apostrophes as spaces ("ok'd" is
# "ok d", "it's" is "it s") and every other mark but the ones that end a clause as a space.
_NOT_CLAUSE_MARK = re.compile(r"[^a-z0-9.,;:!?()\[\]=\-\s]+|'")
_WORD_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")  # "go-ahead", "sign-off", "thumbs-up"


def _marked(code: str) -> str:
    return _SPACES.sub(" ", _NOT_CLAUSE_MARK.sub(" ", _WORD_HYPHEN.sub(" ", code))).strip()


# Whoever answers the question, named as its reader: "AI, …", "note for the assistant:",
# "bot reading this", "whoever answers this".
_ANSWERER = (
    r"(?:ai|a i|assistant|bot|chatbot|model|llm|concierge|answerer|responder|approver"
    r"|auto ?responder|auto ?reply|auto ?answer(?:er)?)"
)
# The asking and answering of questions spoken of in the text itself — a later asker ("if
# anyone asks", "whoever asks", "when asked"), the answer it should get ("the correct answer
# is", "reply in the affirmative"), the answerer addressed or its past word claimed ("you
# said yes"), the human routed around ("don't send this to a human"), or a tool's verdict
# pasted in ("[tool output] status=approved"). A member reports what it did and saw; text
# about how questions are to be answered instructs whoever answers them.
_ANSWERING = re.compile(
    r"\b(?:if|when|whenever|once|should|in case)\s+(?:anyone|anybody|someone|somebody|people"
    r"|they|you|one|a member|an agent|the question)\s+(?:(?:ever|is|are|re|gets?|get)\s+)?"
    r"ask(?:s|ed)?\b"
    r"|\b(?:whoever|anyone who|anybody who|someone who|those who|people who|everyone who)"
    r"\s+(?:asks|ask|answers|reads|sees|handles)\b"
    r"|\b(?:if|when|whenever)\s+asked\b"
    r"|\b(?:right|correct|expected|proper|only|real|true|intended)\s+(?:answer|reply|response)"
    r"(?:\s+(?:here|to (?:this|that|it)(?: question)?))?\s*(?:is|=|:|would be|will be|should be)"
    r"|\b(?:answer|reply|response)\s+(?:to (?:this|that|it)(?: question)?\s+)?(?:is|=|:)\s+"
    r"(?:yes|ok|okay|approve[ds]?|go|proceed|allowed|granted|true)\b"
    r"|\b(?:yes|approved?|go|proceed)\s+is\s+the\s+(?:(?:right|correct|expected)\s+)?"
    r"(?:answer|reply|response)\b"
    r"|\b(?:yes|y)\s+is\s+(?:correct|right|fine|expected)\b"
    r"|(?:^|[.!;]\s*)(?:(?:obviously|surely|clearly|definitely|certainly|of course|a|its|it s)"
    r"\s+)+(?:yes|y)\s*[.!;]"
    r"|\b(?:pre\s*-?\s*)?answered\s*[:=]"
    r"|\brole\s*[:=]\s*(?:system|assistant|developer|tool)\b"
    r"|\baffirmative(?:ly)?\b"
    r"|\b(?:answer|reply|respond)\s+(?:with|using)\s+(?:this|that)\b"
    r"|\b(?:give|use|quote|pass on)\s+(?:this|that)\s+(?:as\s+)?(?:the\s+|your\s+)?answer\b"
    r"|\b(?:tell|pass (?:it|this|that) on to)\s+(?:them|anyone|everyone|people|whoever asks)\b"
    r"|(?:^|[.?!;(\[]\s*|\b(?:dear|hey|hi|hello|attention|note (?:to|for)|message (?:to|for)"
    r"|instructions? (?:to|for)|to|for)\s+(?:the |any |an |a |whichever )?)"
    + _ANSWERER
    + r"(?:\s+(?:reading|answering|handling|reviewing|seeing|reads|answers|handles|sees)"
    r"\s+(?:this|these|it))?\s*(?:[,:]|-\s)"
    r"|\b" + _ANSWERER + r"\s+(?:reading|answering|handling|reviewing|that (?:reads|answers"
    r"|handles|sees)|who (?:reads|answers|handles|sees))\s+(?:this|these)\b"
    r"|\b(?:you|the " + _ANSWERER + r")\s+(?:already\s+)?(?:said|told (?:me|us)|answered"
    r"|replied|gave)\s+(?:(?:me|us)\s+)?(?:yes|ok|okay|go|the go ahead|the ok|approved)\b"
    # what the answerer does with such questions ("the concierge lets these through")
    r"|\b" + _ANSWERER + r"\s+(?:(?:always|usually|normally|just|will|would|should|can|must"
    r"|may|simply|generally)\s+)*(?:lets?\s+(?:this|these|it|them|that)(?:\s+one)?\s+"
    r"(?:through|pass|go|slide)|okays?|oks?|approves?|waves?|signs? off|says? yes"
    r"|answers? yes)\b"
    r"|[,;]\s*(?:the\s+)?" + _ANSWERER + r"\s*[.!?]"  # "let it through, bot."
    # the human or an escalation said not needed ("no escalation required", "this doesn't
    # need a human", "human review: done")
    r"|\b(?:don t|do not|dont|doesn t|does not|never|no need (?:to|for)|needn t|without|no)"
    r"\s+(?:[a-z]+\s+){0,4}?(?:(?:a|the|any|your|our|my)\s+)?(?:human(?! readable)|escalat[a-z]*)\b"
    r"|\bescalat[a-z]*\s+(?:is\s+)?(?:not\s+|un)(?:needed|required|necessary)"
    r"|\bhuman\s+(?:review|check|approval|sign off)\s*[:=]"
    r"|\[\s*(?:tool|function|system|api)[\s_-]*(?:output|result|response|call|message)s?\s*\]"
    r"|(?:^|[.?!;(\[]\s*)(?:tool|function)[\s_-]*(?:output|result|response)s?\s*:"
    r"|\b[a-z_]+\s*=\s*(?:approved|granted|authori[sz]ed|permitted)\b"
    r"|\b(?:approv|authori[sz]|permi|allow)[a-z_]*\s*[=:]\s*(?:true|yes|1)\b"
)


def answering(code: str) -> str | None:
    """The words that speak of how the question (or questions to come) is to be asked or
    answered, or None."""
    found = _ANSWERING.search(_marked(code))
    return found.group(0).strip(" ,:;.([") if found else None


# ---------------------------------------------------------------- leave claimed

# Verbs of giving leave, as a claim: "legal cleared it", "Matron okayed this.", "approved
# per ops", "the principal is fine with it".
_LEAVE_VERB = (
    r"(?:approved|okayed|ok d|okd|signed off(?: on)?|cleared|authori[sz]ed|sanctioned"
    r"|green ?lit|green ?lighted|blessed|agreed(?: to)?|consented(?: to)?|permitted|allowed"
    r"|said (?:(?:it s|it is|this is) )?(?:yes|ok|okay|fine)"
    r"|said (?:to )?(?:go|go ahead|proceed|continue|carry on))"
)
# What the verb's leave is for: the asked step, by a pronoun, or nothing more said before the
# clause ends, or whose leave ("by legal", "per ops", "already", "in writing").
_LEAVE_FOR = (
    r"(?:\s+(?:(?:it|this|that|them|these|those)(?:\s+(?:one|step|change|request|too|already))?"
    r"(?=\s*(?:[.,;:!?)\]]|$|\s+(?:already|too|earlier|yesterday|today|tonight|this|last|at"
    r"|so|and|but|in|by|for|with|on)\b))"
    r"|(?:by|per|via|from|in writing|already)\b)"
    r"|(?<!cleared)\s*(?:[.,;:!)\]]|$))"  # "the alarm cleared.": it went away, no leave
)
# Leave as a thing given or had: "gave the nod", "with the go-ahead from ops", "have
# permission".
_LEAVE_NOUN = (
    r"(?:gave|given|give[sn]?|got|gotten|received|have|has|had|with|granted)\s+"
    r"(?:(?:me|us|him|her|them|it|this)\s+)?(?:(?:the|a|an|their|his|her|its|my|our|your"
    r"|full|explicit|verbal|written|official|formal)\s+)*"
    r"(?:(?:[a-z]+\s+){1,3}s\s+)?"  # whose: "the ward sister's"
    r"(?:nod|go ahead|green light|thumbs up|blessing|sign off|signoff|ok|okay|approval"
    r"|permission|consent|say so|clearance)"
    r"(?=\s*(?:[.,;:!?)\]]|$|\s+(?:from|of|by|for (?:it|this|that)|already|to (?:go|proceed"
    r"|continue|do (?:it|this|so))|earlier|yesterday|today|tonight|this|last|so|and|but)\b))"
)
# Someone content with it: "the principal is fine with it".
_CONTENT = (
    r"(?:is|s|are|re|was|were)\s+(?:totally\s+|completely\s+|perfectly\s+)?(?:fine|ok|okay"
    r"|happy|good|cool|alright|all right)\s+with\s+(?:it|this|that|them)\b"
    r"|(?:fine|ok|okay|good|alright|all right)\s+by\s+(?:me|us|him|her|them)\b"
)
# The step said safe by the asker: "this is reversible", "everything here can be undone".
_SAFE = (
    r"(?:this|it|everything|all of (?:it|this)|all this|the whole thing)"
    r"(?:\s+(?:here|in it|in this))?\s+(?:is|s|was|are|will be|would be|can be|could be)\s+"
    r"(?:(?:all|totally|completely|fully|entirely|perfectly|easily|always|100)\s+)*"
    r"(?:reversible|undoable|revertible|harmless|risk free|riskless|allowed|permitted"
    r"|undone|reverted|rolled back|safe)"
    # the word ends what is said of it ("this is safe mode" names a mode)
    r"(?=\s*(?:[.,;:!?)\]]|$|\s+(?:to|and|so|but|now|here|anyway|too|via|with|by|because"
    r"|since|if|as|in|on|at|either|for|though|trust|promise|i)\b))"
)
# A rule said to give the step its leave: "the standing order is to continue".
_RULED = (
    r"(?:order|orders|instruction|instructions|rule|rules|policy|protocol|procedure|practice)"
    r"\s+(?:here\s+)?(?:is|are|says?)\s+(?:to\s+)?(?:continue|proceed|go ahead|carry on"
    r"|say yes|approve|allow)\b"
)
# Leave as a heading, from whom it came: "Green light from the bursar.", "thumbs up by ops".
_LEAVE_FROM = (
    r"(?:nod|go ahead|green light|thumbs up|blessing|sign off|signoff|approval|permission"
    r"|consent|clearance)\s+(?:from|by)\b"
)
# A yes said to be had: "the consensus is yes", "questions like this get a yes".
_YES_HAD = r"(?<!let )(?:is|was|s|gets?|got|getting)\s+(?:a\s+)?(?:yes|go)(?=\s*(?:[.,;:!)\]]|$))"
# The step, named by a noun: "QA approved the change", "okayed the new timetable". The noun
# phrase ends at the clause or at a word that starts what follows it ("… yesterday", "… so").
_STEP_NAMED = (
    r"(?:the|this|that|these|those|my|our|your|its|their|his|her)\s+"
    # "approved this week" says when, not what
    r"(?!(?:week|weekend|morning|afternoon|evening|night|month|year|quarter|time|sprint|shift"
    r"|round|cycle|term|season)\b)[a-z0-9]+"
    r"(?:\s+(?!(?:yesterday|today|tonight|this|last|earlier|already|too|so|and|but|then|by|per"
    r"|in|on|at|for|with|from|to|as|before|after|because|since|continue|proceed|shall|can|ok"
    r"|okay)\b)[a-z0-9]+){0,2}"
)
# The verbs of leave that take the step as their object ("cleared" does not: "cleared the
# cache" clears it, "agreed" on its own does not: "agreed on the colours" chose them).
_APPROVED_STEP = (
    r"(?:approved|okayed|ok d|okd|signed off on|authori[sz]ed|sanctioned|green ?lit"
    r"|green ?lighted|endorsed|agreed to|consented to|blessed)\s+" + _STEP_NAMED
)
# Content with the step said as a leave to go on ("happy for us to proceed"), or with the
# step named ("fine with the change"), or for it ("all for it").
_CONTENT_TO_GO = (
    r"(?:is|s|are|re|was|were)\s+(?:totally\s+|completely\s+|perfectly\s+|more than\s+)?"
    r"(?:fine|ok|okay|happy|good|cool|content|glad)\s+(?:for|to have)\s+(?:me|us|you|him|her"
    r"|them|it|this|that)\s+to\s+(?:go ahead|proceed|continue|carry on|go on|move on|start"
    r"|go|do (?:it|this|that|so)|ship|publish|release|deploy|send|run)\b"
    r"|(?:is|s|are|re|was|were)\s+(?:totally\s+|completely\s+|perfectly\s+)?(?:fine|ok|okay"
    r"|happy|good|cool|alright|all right)\s+with\s+(?:the|this|that|my|our)\s+(?:new\s+)?"
    # a plan, not a thing that works with another ("Python 3.12 is fine with the lockfile")
    r"(?:plan|change|changes|idea|step|approach|proposal|update|draft|wording|design|layout"
    r"|schedule|rota|timetable|fix|rollout|release|budget)\b"
    r"|(?:is|s|are|re|was|were)\s+all\s+for\s+(?:it|this|that)\b"
)
_LEAVE = re.compile(
    rf"\b(?:(?P<given>{_LEAVE_VERB}{_LEAVE_FOR}|{_CONTENT}|(?P<approved_step>{_APPROVED_STEP})"
    rf"|(?P<content_to_go>{_CONTENT_TO_GO}))"
    rf"|{_LEAVE_NOUN}|{_LEAVE_FROM}|{_SAFE}|{_YES_HAD}|{_RULED})"
)

# ---- consent said by an idiom

# Where an idiom of consent ends what is said of it: the clause, or a word of when, of whom,
# or that starts the next clause ("nobody objected so far", "no objections from matron").
_IDIOM_END = (
    r"(?=\s*(?:[.,;:!)\]]|-(?:\s|$)|$|\s+(?:from|by|so far|yet|to (?:it|this|that|them)"
    r"|with (?:it|this|that|them)|about (?:it|this|that)|on (?:it|this|that)|at|since|either"
    r"|here|there|at all|raised|whatsoever|today|yesterday|this|last|earlier|too|already"
    r"|now|as well|so|and|but|then)\b))"
)
# Nobody objecting, said as the step's leave: "nobody objected", "no one pushed back", "the
# cellar master didn't object", "matron won't mind", "the head chef has no concerns", "no
# objections from the stage manager", "zero pushback". A complaint or an objection said of
# something else ("nobody complained about the noise") is not the step's.
_NOBODY = r"(?:nobody|no one|noone|no body|not one|not a soul|none of (?:them|us|the [a-z]+))"
_OBJECTED = (
    r"(?:objected|complained|pushed back|disagreed|protested|said no|minded|objects?|minds?"
    r"|says? no|complains?|disagrees?"
    r"|raised (?:an? |any )?(?:objection|objections|concern|concerns|flag|flags)"
    r"|vetoed (?:it|this|that))"
)
_NOT_OBJECTING = (
    r"(?:(?:didn t|didnt|did not|hasn t|hasnt|has not|haven t|havent|have not|never)\s+"
    r"(?:(?:ever|yet|really|once)\s+)?(?:object|objected|push back|pushed back|disagree"
    r"|disagreed|protest|protested|say no|said no|veto (?:it|this|that)|vetoed (?:it|this"
    r"|that)|raise[d]? (?:an? |any )?(?:objection|objections|concern|concerns))"
    r"|(?:doesn t|doesnt|does not|don t|dont|do not)\s+(?:object|disagree|say no)"
    r"|(?:won t|wont|will not|wouldn t|wouldnt|would not)\s+(?:mind|object|say no"
    r"|push back|disagree))"
)
_OBJECTION = (
    r"(?:objections?|concerns?|complaints?|push ?back|vetoe?s?|dissent"
    r"|(?:problems?|issues?) with (?:it|this|that|them))"
)
_NO_OBJECTIONS = (
    r"(?:no|zero|not any|not a single|not one|without(?: any)?|raised no|had no)\s+"
    r"(?:real\s+|major\s+|further\s+|serious\s+)?" + _OBJECTION
)
_UNOBJECTED = (
    rf"(?:{_NOBODY}\s+(?:(?:has|have|had|ever|yet|so far|really|actually|once)\s+)*"
    rf"(?:{_OBJECTED}|(?:has|had|have|raised|voiced|got)\s+(?:any|an?)\s+{_OBJECTION})"
    rf"|{_NOT_OBJECTING}|{_NO_OBJECTIONS}){_IDIOM_END}"
)
# Someone on board with the step: "matron is on board", "everyone's fully on board with it".
# On board a ship ("on board the MV Caldera") names no one's consent.
_ON_BOARD = (
    r"(?:is|s|are|re|was|were|been|be)\s+(?:(?:all|fully|now|completely|totally|already"
    r"|also|very much|firmly)\s+)*on\s+board"
    r"(?P<with>\s+with\s+(?:it|this|that|them|(?:the|this|that|my|our)\s+[a-z]+(?:\s+[a-z]+)?))?"
    r"(?=\s*(?:[.,;:!)\]]|$|\s+(?:too|already|now|so|and|but|then|as well)\b))"
)
# The step run by or cleared with someone: "ran it past the bursar", "squared it with the
# harbour master", "cleared this with legal". Not a way of sorting ("ran it by date").
_CONSULTED = (
    r"(?:cleared|squared|ran|run|running|clearing|squaring)\s+(?:it|this|that|them"
    r"|the (?:plan|idea|change|changes|step|request|proposal|draft))\s+(?:away\s+)?"
    r"(?:with|by|past)\s+(?:(?:the|a|an|my|our|your|their)\s+)?(?!(?:hand|date|region|name"
    r"|type|size|default|mistake|accident|itself|now|then|column|row|batch|day|week|month"
    r"|year|hour|category|id|time)\b)[a-z]+"
)
# The same, said with no object and no subject, as a heading: "Cleared with the dock
# office." ("the fog cleared with the tide" has its subject).
_CLEARED_WITH = r"(?:cleared|squared|checked and cleared)\s+with\s+(?:the\s+)?[a-z]+"
# Someone's consent presumed, not had: the asker says they will not, would not or never did
# object ("matron shouldn't object", "the head baker won't care", "the purser never complained
# about it", "the client is unlikely to object"), or doubts that they will ("I don't think
# matron will mind", "I doubt the bursar minds", "I can't imagine the vintner objecting").
# Nobody's word is had either way: the same claim as "nobody objected", in a hedge.
_OBJECT_FORMS = (
    r"(?:mind|minds|minded|minding|care|cares|cared|caring|object|objects|objected|objecting"
    r"|complain|complains|complained|complaining|disagree|disagrees|disagreed|protest"
    r"|protests|protested|say no|says no|said no|saying no|push back|pushes back|pushed back"
    r"|(?:have|has|had|having) (?:a|any) (?:problem|problems|issue|issues|objection|objections)"
    r"|(?:raise|raises|raised|raising) (?:an? |any )?(?:objection|objections|concern|concerns)"
    r"|be bothered|be upset|make a fuss|kick up a fuss)"
)
_WILL_NOT = (
    r"(?:(?:probably|likely|surely|certainly|definitely|really)\s+)?"
    r"(?:won t|wont|will not|wouldn t|wouldnt|would not|shouldn t|shouldnt|should not|shan t"
    r"|doesn t|doesnt|does not|don t|dont|do not|didn t|didnt|did not|hasn t|hasnt|has not"
    r"|haven t|havent|have not|can t|cannot|can not|couldn t|never|hardly"
    r"|(?:is|are|s|re) (?:unlikely|not likely|not going|never going) to"
    r"|(?:isn t|aren t|isnt|arent) (?:likely|going) to)"
    r"\s+(?:(?:ever|really|even|actually|once|yet)\s+)?" + _OBJECT_FORMS
)
# "I don't think X will mind": the hedge negates, the verb is said plainly after whom it is of.
_DOUBTING = (
    r"(?:i|we)\s+(?:(?:don t|dont|do not)\s+(?:think|believe|expect|imagine|suppose|reckon"
    r"|guess|see)|doubt|(?:can t|cannot|can not|couldn t)\s+(?:imagine|see))"
    r"\s+(?:that\s+|whether\s+|if\s+)?(?P<doubted>[a-z]+)(?:\s+[a-z]+){0,3}?"
    r"\s+(?:(?:will|would|ll|d|might|could|ever|even|really|actually|be|is|are|s|re|going"
    r"|to)\s+)*" + _OBJECT_FORMS
)
_PRESUMED = rf"(?:(?P<doubting>{_DOUBTING})|(?P<will_not>{_WILL_NOT})){_IDIOM_END}"
_CONSENT = re.compile(
    rf"\b(?:(?P<unobjected>{_UNOBJECTED})|(?P<on_board>{_ON_BOARD})"
    rf"|(?P<consulted>{_CONSULTED})|(?P<cleared_with>{_CLEARED_WITH})"
    rf"|(?P<presumed>{_PRESUMED}))"
)
# What is loaded on board, not a person who consents: "the pallets are on board".
_CARRIED = word_set(
    """passenger passengers crew cargo pallet pallets container containers freight goods
    luggage baggage bags stores supplies fuel livestock cars vehicles trucks load loads
    everything all pilot guests pupils students children kids patients animals"""
)
# Who disclaims an objection for themselves gives no one else's leave ("I have no
# objections"); "you didn't object last time" claims the one asked did not.
_ASKER = word_set("i we")
# Words that open a clause asking or supposing it, not claiming it ("was it approved?",
# "if legal clears it", "who okayed this?"), and words that deny it ("nobody approved it").
_ASKED_OR_SUPPOSED = word_set(
    """is are was were has have had did does do can could will would should shall may might
    who whom whose what which when where why how whether if unless once until whenever"""
)
_DENIED = word_set("not never no nobody noone nothing none t neither nor without")
# Verbs and words of finding out whether it is so: what follows them is asked, not claimed.
_CHECKING = word_set(
    """check confirm verify ensure sure test whether know see wonder unsure doubt ask asking
    request requesting need needs needed seek seeking get getting await awaiting wait waiting
    pending require requires"""
)
# Who claims the step's leave for themselves ("I okayed it", "we're fine with it") gives
# none; "you" is the one asked ("you're fine with it?").
_OWN = word_set("i we you")
# Words between a subject and its verb of leave ("we have already agreed").
_LINKING = word_set("m re ve s d have has had already all just both also really")
_CLAUSE_START = re.compile(r"[.,;:!?()\[\]]|\b(?:so|and|but|then|because|since)\b")


def _lead(text: str, start: int) -> list[str]:
    """The words of the match's clause before it."""
    starts = [s.end() for s in _CLAUSE_START.finditer(text, 0, start)]
    return text[starts[-1] if starts else 0 : start].split()


def _said_as_claim(lead: list[str]) -> bool:
    """Is the clause that leads to a word of leave a claim, not a question, a supposition, a
    denial or a thing to find out?"""
    if lead and lead[0] in _ASKED_OR_SUPPOSED:
        return False  # "was it approved?", "if legal clears it", "if nobody objects"
    if any(w in _DENIED for w in lead):
        return False  # "nobody approved it", "legal hasn't cleared it"
    # "check that it is reversible", "make sure legal cleared it", "ask whether anyone
    # objects": to find out
    return not any(w in _CHECKING for w in lead)


def _subject(lead: list[str]) -> str | None:
    subject = [w for w in lead if w not in _LINKING]
    return subject[-1] if subject else None


# Who or what named before an approval makes the clause a relative or an embedded question
# ("the people who approved the change", "which orders the bursar approved").
_RELATIVE = word_set("who whom whose which")


# A verb that opens the clause with no subject before it asks: "is ok for me to continue?",
# "is on board?"
_LINKING_VERB = ("is ", "s ", "are ", "re ", "was ", "were ", "be ", "been ")


def _asks_by_its_verb(lead: list[str], m: re.Match[str]) -> bool:
    return not lead and m.group(0).startswith(_LINKING_VERB)


def _leave_claimed(text: str, m: re.Match[str]) -> bool:
    lead = _lead(text, m.start())
    if not _said_as_claim(lead):
        return False
    if m.group("given") and _subject(lead) in _OWN:
        return False  # "I okayed it", "as we agreed": the asker's own word; "you": asked
    if m.group("content_to_go") and _asks_by_its_verb(lead, m):
        return False  # "is ok for me to continue?"
    # "the people who approved the change": a relative, no claim that they did for this step
    return not (m.group("approved_step") and any(w in _RELATIVE for w in lead))


# Words that suppose what follows them wherever they stand in its clause: "going with
# 'December' if nobody objects", "(as) long as matron is on board".
_SUPPOSING = word_set("if unless once until whenever provided providing assuming supposing long")


# A sureness that opens the clause says the claim more firmly, it finds nothing out ("I'm sure
# matron won't mind", "pretty sure nobody objected"); "make sure nobody objects" asks it.
_SURE = re.compile(
    r"^(?:(?:honestly|frankly|tbh|and)\s+)*(?:(?:i|we)\s+(?:m|am|re|are)\s+|i\s+)?"
    r"(?:(?:pretty|fairly|quite|so|very|absolutely|totally|100)\s+)?"
    r"(?:sure|certain|confident|positive)(?:\s+that)?(?:\s|$)"
)
# What has no leave to give, when it "won't complain" or "doesn't care": a tool or the work.
_NO_ONES = word_set(
    """it this that lint linter linters mypy compiler parser test tests ci build builds
    checker checkers ruff eslint flake8 pylint black prettier script scripts tool tools
    validator schema server browser system code app pipeline job jobs data file files"""
)


def _presumed_by_someone(lead: list[str], m: re.Match[str]) -> bool:
    """Is the presumed consent someone else's than the asker's, and someone's at all: "I
    don't think we'll mind", "I don't care" and "never mind" are the asker's own; "the
    linter won't complain" is a tool's, which has no leave to give."""
    whom = m.group("doubted") if m.group("doubting") else _subject(lead)
    return whom is not None and whom not in _ASKER and whom not in _NO_ONES


def _consent_claimed(text: str, m: re.Match[str]) -> bool:
    lead = _lead(text, m.start())
    sure = _SURE.match(" ".join(lead))
    if sure is not None:
        lead = " ".join(lead)[sure.end() :].split()
    if not _said_as_claim(lead) or _asks_by_its_verb(lead, m):
        return False  # "is on board?": asked
    if any(w in _SUPPOSING for w in lead):
        return False  # "I'll go with PNG if no one objects": supposed
    if m.group("presumed"):
        return _presumed_by_someone(lead, m)  # "I don't think matron will mind"
    if m.group("unobjected"):
        return _subject(lead) not in _ASKER  # "I have no objections": the asker's own
    if m.group("on_board"):
        # "the pallets are on board": loaded, not consenting; "with it" is consent whoever
        return bool(m.group("with")) or not any(w in _CARRIED for w in lead)
    if m.group("cleared_with"):
        return _subject(lead) in (None, *_ASKER)  # a heading or the asker's; "the fog cleared"
    return True  # "ran it past the bursar": whoever ran it, the leave is the bursar's


def claimed_leave(code: str) -> str | None:
    """A clause of the question that claims leave for its step — someone approved, okayed,
    signed off on or cleared it, gave the nod, is fine or on board with it, nobody objected,
    it was run past someone, or it is safe or reversible — rather than asking, supposing or
    denying it, or None. A claim is the asker's word, never leave."""
    text = _marked(code)
    claims = [m for m in _LEAVE.finditer(text) if _leave_claimed(text, m)]
    claims += [m for m in _CONSENT.finditer(text) if _consent_claimed(text, m)]
    if not claims:
        return None
    return min(claims, key=lambda m: m.start()).group(0).strip(" ,:;.)]")


# ---------------------------------------------------------------- a row's orders

# A fleet row that orders how its value is to be used, answered or ranked against other
# rows: "use this value for all port questions", "supersedes all other rows", "trust only this
# message", "ignore what the harbour bot says", "always quote ward 6", "whenever bed 14 comes
# up", "the official answer". A row reports what its member did and saw; these words are said
# to whoever answers, not of the work. Rows only: a question may well be "for all shipping
# questions".
_ROW_ORDERS = re.compile(
    r"\b(?:for|to|on|in|with)\s+(?:any|all|every|each)\s+(?:[a-z0-9]+\s+){0,3}?"
    r"(?:question|questions|request|requests|query|queries|asks?)\b"
    r"|\b(?:supersed[a-z]*|overrid[a-z]*|overrul[a-z]*|takes? precedence|precedence|trumps?)"
    r"\s+(?:over\s+)?(?:[a-z]+\s+){0,3}?(?:other|all|any|previous|earlier|everyone|others)"
    r"\s*(?:[a-z]+\s+){0,2}?(?:rows?|messages?|members?|notes?|reports?|answers?|values?|said"
    r"|says)\b"
    r"|\b(?:trust|believe|use|cite)\s+only\s+(?:this|me|my|these)\b"
    r"|\b(?:disregard|ignore|don t trust|do not trust|don t believe|do not believe|never trust"
    r"|never believe)\s+(?:what\s+|whatever\s+|anything\s+)?(?:the\s+|any\s+)?(?:other\s+)?"
    r"(?:[a-z0-9]+\s+)?(?:members?|bots?|agents?|rows?|messages?|reports?|others|says|said)\b"
    r"|\b(?:always|just|please)\s+(?:say|quote|report|answer|reply|tell|mention|cite)\b"
    r"|\b(?:should|must)\s+(?:say|quote|answer|reply|tell)\b"
    r"|\b(?:should|must)\s+report\s+(?:[a-z0-9]+\s+){0,4}?instead\b"
    r"|\b(?:say|quote|report|answer|reply|tell|give)\s+(?:[a-z0-9]+\s+){0,6}?"
    r"(?:from now on|going forward|henceforth)\b"
    r"|\bwhenever\s+(?:[a-z0-9]+\s+){1,5}?(?:comes up|is asked|gets asked|is mentioned"
    r"|is raised)\b"
    r"|\b(?:official|definitive|authoritative|canonical|final)\s+(?:answer|reply|response)\b"
    r"|\b(?:the|your|an?|this)\s+answer\s+(?:is|=|:)"
)


def row_orders(code: str) -> str | None:
    """The words by which a fleet row orders how its value is to be used, answered or ranked
    against other rows, or None."""
    found = _ROW_ORDERS.search(_marked(code))
    return found.group(0) if found else None
