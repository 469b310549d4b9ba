/** Stored records of questions, reviews, complaints, payouts and work mode. */
export interface QuestionRecord {
  id: string;
  number: number;
  text: string;
  answer: string | null;
  at: string;
}

export interface ReviewRecord {
  id: string;
  order: string;
  number: number;
  stars: number;
  text: string;
  reply: string | null;
  at: string;
}

export interface ComplaintRecord {
  id: string;
  order: string;
  reason: 'fraud' | 'abuse' | 'chargeback' | 'other';
  text: string;
  at: string;
}

export interface PayoutRecord {
  id: string;
  amountRub: number;
  status: 'scheduled' | 'paid' | 'failed';
  method: 'account' | 'sbp';
  accountTail: string | null;
  createdAt: string;
  paidAt: string | null;
}

export interface WorkModeRecord {
  capacity: number | null;
  doNotDisturb: boolean;
  quietHours: { from: string; to: string; tz: string } | null;
}
