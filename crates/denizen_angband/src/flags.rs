//! Race flags as bitsets, each named exactly as the race file spells it, so a file's token
//! and its flag are the same word (`ANIMAL`, `BR_FIRE`, `S_UNDEAD`).

// The flags' names are the race file's own tokens and document themselves.
#![allow(missing_docs)]

bitflags::bitflags! {
    /// A race's basic flags (2.7.9's first three flag groups), spelled as in the race file.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub struct RaceFlags: u64 {
        const ANIMAL = 1 << 0;
        const ATTR_CLEAR = 1 << 1;
        const ATTR_MULTI = 1 << 2;
        const BASH_DOOR = 1 << 3;
        const CHAR_CLEAR = 1 << 4;
        const CHAR_MULTI = 1 << 5;
        const COLD_BLOOD = 1 << 6;
        const DEMON = 1 << 7;
        const DRAGON = 1 << 8;
        const DROP_1D2 = 1 << 9;
        const DROP_2D2 = 1 << 10;
        const DROP_3D2 = 1 << 11;
        const DROP_4D2 = 1 << 12;
        const DROP_60 = 1 << 13;
        const DROP_90 = 1 << 14;
        const DROP_CHOSEN = 1 << 15;
        const DROP_GOOD = 1 << 16;
        const DROP_GREAT = 1 << 17;
        const EMPTY_MIND = 1 << 18;
        const ESCORT = 1 << 19;
        const ESCORTS = 1 << 20;
        const EVIL = 1 << 21;
        const FEMALE = 1 << 22;
        const FORCE_DEPTH = 1 << 23;
        const FORCE_MAXHP = 1 << 24;
        const FORCE_SLEEP = 1 << 25;
        const FRIENDS = 1 << 26;
        const GIANT = 1 << 27;
        const HURT_LITE = 1 << 28;
        const HURT_ROCK = 1 << 29;
        const IM_ACID = 1 << 30;
        const IM_COLD = 1 << 31;
        const IM_ELEC = 1 << 32;
        const IM_FIRE = 1 << 33;
        const IM_POIS = 1 << 34;
        const INVISIBLE = 1 << 35;
        const KILL_BODY = 1 << 36;
        const KILL_ITEM = 1 << 37;
        const KILL_WALL = 1 << 38;
        const MALE = 1 << 39;
        const MOVE_BODY = 1 << 40;
        const MULTIPLY = 1 << 41;
        const NEVER_BLOW = 1 << 42;
        const NEVER_MOVE = 1 << 43;
        const NO_CONF = 1 << 44;
        const NO_FEAR = 1 << 45;
        const NO_SLEEP = 1 << 46;
        const ONLY_GOLD = 1 << 47;
        const ONLY_ITEM = 1 << 48;
        const OPEN_DOOR = 1 << 49;
        const ORC = 1 << 50;
        const PASS_WALL = 1 << 51;
        const POWERFUL = 1 << 52;
        const QUESTOR = 1 << 53;
        const RAND_25 = 1 << 54;
        const RAND_50 = 1 << 55;
        const REGENERATE = 1 << 56;
        const SMART = 1 << 57;
        const STUPID = 1 << 58;
        const TAKE_ITEM = 1 << 59;
        const TROLL = 1 << 60;
        const UNDEAD = 1 << 61;
        const UNIQUE = 1 << 62;
        const WEIRD_MIND = 1 << 63;
    }

    /// A race's innate attacks and breaths (2.7.9's fourth flag group, which the dragon pit compares whole).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub struct InnateFlags: u32 {
        const SHRIEK = 1 << 0;
        const ARROW_1 = 1 << 1;
        const ARROW_2 = 1 << 2;
        const ARROW_3 = 1 << 3;
        const ARROW_4 = 1 << 4;
        const BR_ACID = 1 << 5;
        const BR_ELEC = 1 << 6;
        const BR_FIRE = 1 << 7;
        const BR_COLD = 1 << 8;
        const BR_POIS = 1 << 9;
        const BR_NETH = 1 << 10;
        const BR_LITE = 1 << 11;
        const BR_DARK = 1 << 12;
        const BR_CONF = 1 << 13;
        const BR_SOUN = 1 << 14;
        const BR_CHAO = 1 << 15;
        const BR_DISE = 1 << 16;
        const BR_NEXU = 1 << 17;
        const BR_TIME = 1 << 18;
        const BR_INER = 1 << 19;
        const BR_GRAV = 1 << 20;
        const BR_SHAR = 1 << 21;
        const BR_PLAS = 1 << 22;
        const BR_WALL = 1 << 23;
    }

    /// A race's spells (2.7.9's fifth and sixth flag groups).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub struct SpellFlags: u64 {
        const BA_ACID = 1 << 0;
        const BA_COLD = 1 << 1;
        const BA_DARK = 1 << 2;
        const BA_ELEC = 1 << 3;
        const BA_FIRE = 1 << 4;
        const BA_MANA = 1 << 5;
        const BA_NETH = 1 << 6;
        const BA_POIS = 1 << 7;
        const BA_WATE = 1 << 8;
        const BLIND = 1 << 9;
        const BLINK = 1 << 10;
        const BO_ACID = 1 << 11;
        const BO_COLD = 1 << 12;
        const BO_ELEC = 1 << 13;
        const BO_FIRE = 1 << 14;
        const BO_ICEE = 1 << 15;
        const BO_MANA = 1 << 16;
        const BO_NETH = 1 << 17;
        const BO_PLAS = 1 << 18;
        const BO_WATE = 1 << 19;
        const BRAIN_SMASH = 1 << 20;
        const CAUSE_1 = 1 << 21;
        const CAUSE_2 = 1 << 22;
        const CAUSE_3 = 1 << 23;
        const CAUSE_4 = 1 << 24;
        const CONF = 1 << 25;
        const DARKNESS = 1 << 26;
        const DRAIN_MANA = 1 << 27;
        const FORGET = 1 << 28;
        const HASTE = 1 << 29;
        const HEAL = 1 << 30;
        const HOLD = 1 << 31;
        const MIND_BLAST = 1 << 32;
        const MISSILE = 1 << 33;
        const SCARE = 1 << 34;
        const SLOW = 1 << 35;
        const S_ANGEL = 1 << 36;
        const S_ANT = 1 << 37;
        const S_DEMON = 1 << 38;
        const S_DRAGON = 1 << 39;
        const S_HI_DRAGON = 1 << 40;
        const S_HI_UNDEAD = 1 << 41;
        const S_HOUND = 1 << 42;
        const S_HYDRA = 1 << 43;
        const S_MONSTER = 1 << 44;
        const S_MONSTERS = 1 << 45;
        const S_SPIDER = 1 << 46;
        const S_UNDEAD = 1 << 47;
        const S_UNIQUE = 1 << 48;
        const S_WRAITH = 1 << 49;
        const TELE_AWAY = 1 << 50;
        const TELE_LEVEL = 1 << 51;
        const TELE_TO = 1 << 52;
        const TPORT = 1 << 53;
        const TRAPS = 1 << 54;
    }
}
