"""The Payne Academy Card Game: battles of arrow-marked characters, behind the game contract."""
