# Only comments.

   # indented
