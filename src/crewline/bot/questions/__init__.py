"""Question cards and dialogs (SPEC §3): blocking questions a session waits on."""

from crewline.bot.questions.feature import QUESTION_PRESS, Questions
from crewline.bot.questions.records import answer_question, ask, reopen, validate_question

__all__ = ["QUESTION_PRESS", "Questions", "answer_question", "ask", "reopen", "validate_question"]
